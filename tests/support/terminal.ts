import { spawn } from "node:child_process";

/** admin:create's two password prompts (scripts/admin-create.ts). */
export const ADMIN_CREATE_PROMPTS = /\(not shown\): |The same password again: /;

/** A word for `sh -c`: single-quoted, its single quotes escaped. */
export function shellWord(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/**
 * Run `argv` on a pseudo-terminal (util-linux `script`), as a person at a
 * terminal runs it: each of `typed` is typed (then Return) once the next
 * prompt matching `prompts` has appeared, never before (type-ahead would be
 * echoed by the terminal before the program hides it). `output` is everything
 * the terminal showed; the run is killed after `timeoutMs`. Shared by the
 * admin:create test and the hardening section that runs the compiled script.
 */
export function runOnTerminal(
  argv: string[],
  typed: string[],
  { prompts, cwd, env, timeoutMs = 30_000 }: { prompts: RegExp; cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<{ status: number | null; output: string }> {
  const child = spawn("script", ["--quiet", "--return", "--command", argv.map(shellWord).join(" "), "/dev/null"], { cwd, env });
  const global = new RegExp(prompts.source, prompts.flags.includes("g") ? prompts.flags : `${prompts.flags}g`);
  let output = "";
  let answered = 0;
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    const seen = output.match(global)?.length ?? 0;
    for (; answered < Math.min(seen, typed.length); answered++) child.stdin.write(`${typed[answered]}\r`);
  };
  child.stdout.on("data", onOutput);
  child.stderr.on("data", onOutput);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) =>
    child.on("close", (status) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ status, output });
    }),
  );
}

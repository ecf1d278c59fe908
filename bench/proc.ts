/** Child processes, raw HTTP fetches and /proc readings for the benchmark. */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import { nextTotpCode, testTotpSecret } from "../tests/support/totp";

/**
 * How the benchmark runs the production server and the operational scripts:
 * the one place to change when `npm start` changes. The server is the build's
 * compiled entry run with plain node, as `npm start` does (process.execPath,
 * not an npm or npx wrapper, so the child's pid and CPU time are the server's);
 * the scripts run from source (they are not measured).
 */
export function serverArgs(env: NodeJS.ProcessEnv): string[] {
  return [`${env.BUILD_DIR ?? "build"}/server/index.js`];
}
const SCRIPT_ARGS = { "admin-create": ["--import", "tsx", "scripts/admin-create.ts"], seed: ["--import", "tsx", "scripts/seed.ts"] } as const;

/** Start our production server (NODE_ENV, PORT, DATABASE_PATH … come with `env`). */
export function startServer(name: string, root: string, env: NodeJS.ProcessEnv): Child {
  return startChild(name, process.execPath, serverArgs(env), { cwd: root, env });
}

/** Node's arguments for an operational script with its own arguments. */
export function scriptArgs(script: keyof typeof SCRIPT_ARGS, args: string[]): string[] {
  return [...SCRIPT_ARGS[script], ...args];
}

/** The admin the benchmark signs in as (created in each bench database). */
export const BENCH_ADMIN = { email: "bench-admin@lumenridge.example", name: "Bench Admin", password: "bench-only-password-1234" } as const;

/** The JSON sign-in body of BENCH_ADMIN, with a two-factor code of a step not used yet. */
export async function benchAdminLogin(): Promise<{ email: string; password: string; code: string }> {
  return { email: BENCH_ADMIN.email, password: BENCH_ADMIN.password, code: (await nextTotpCode(BENCH_ADMIN.email)).code };
}

/** Create BENCH_ADMIN in the database of `env` (DATABASE_PATH) with the admin:create script, two-factor on (admins need it). */
export async function createBenchAdmin(root: string, env: NodeJS.ProcessEnv): Promise<void> {
  const { email, name, password } = BENCH_ADMIN;
  // The secrets through the environment (DESIGN.md §8), never the command line.
  const created = await runNode(scriptArgs("admin-create", ["--email", email, "--name", name]), root, {
    ...env,
    ADMIN_PASSWORD: password,
    ADMIN_TOTP_SECRET: testTotpSecret(email),
  });
  if (created.code !== 0) throw new Error(`admin:create failed (exit ${created.code}):\n${created.output}`);
}

/** Run node with `args` to the end; its output, exit code and duration. */
export function runNode(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string; stdout: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString("utf8");
      stdout += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.on("error", (error) => resolve({ code: null, output: `${output}\n${String(error)}`, stdout, ms: Date.now() - started }));
    child.on("exit", (code) => resolve({ code, output, stdout, ms: Date.now() - started }));
  });
}

export type Child = {
  name: string;
  proc: ChildProcess;
  pid: number;
  /** Last lines of stdout and stderr, for error messages. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited: () => boolean;
};

/** Start a process with piped output (kept in a small ring for diagnostics). */
export function startChild(name: string, command: string, args: string[], options: SpawnOptions): Child {
  const proc = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  if (proc.pid === undefined) throw new Error(`Could not start ${name} (${command})`);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (lines.length > 60) lines.splice(0, lines.length - 60);
  };
  proc.stdout!.on("data", keep);
  proc.stderr!.on("data", keep);
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.on("exit", (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
    proc.on("error", (error) => {
      lines.push(String(error));
      done = true;
      resolve({ code: null, signal: null });
    });
  });
  return { name, proc, pid: proc.pid, output: () => lines.join("\n"), exited, hasExited: () => done };
}

/** SIGTERM, wait for the exit; SIGKILL after the grace period. */
export async function stopChild(child: Child, graceMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null; killed: boolean }> {
  if (child.hasExited()) return { ...(await child.exited), killed: false };
  child.proc.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), graceMs);
  });
  const result = await Promise.race([child.exited, timeout]);
  clearTimeout(timer);
  if (result === "timeout") {
    child.proc.kill("SIGKILL");
    return { ...(await child.exited), killed: true };
  }
  return { ...result, killed: false };
}

/** What run.ts gives every part that starts servers of its own: where, with which environment, and how to report. */
export type PartContext = {
  root: string;
  host: string;
  /** An empty directory for this part (files, database, storage); the caller removes it. */
  workDir: string;
  /** The environment of our server for a port and a data directory. */
  serverEnv: (port: number, dataDir: string) => NodeJS.ProcessEnv;
  /** Started processes are added here (and removed once stopped) so an interrupted run can stop them. */
  children: Set<Child>;
  progress: (message: string) => void;
};

export type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One GET on a fresh connection; the body is returned as sent (not decompressed). */
export function getRaw(url: string, headers: Record<string, string> = {}, timeoutMs = 15_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`timeout after ${timeoutMs} ms: GET ${url}`)));
    req.on("error", reject);
  });
}

/** Poll a URL until it answers 200; fail early when the process exits. */
export async function waitForHttp(url: string, child: Child, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  let lastError = "";
  while (Date.now() - started < timeoutMs) {
    if (child.hasExited()) {
      const { code, signal } = await child.exited;
      throw new Error(`${child.name} exited (code ${code}, signal ${signal}) before ${url} answered.\n${child.output()}`);
    }
    try {
      const res = await getRaw(url, {}, 2_000);
      if (res.status === 200) return Date.now() - started;
      lastError = `HTTP ${res.status}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await sleep(100);
  }
  throw new Error(`${child.name}: ${url} did not answer 200 within ${timeoutMs} ms (${lastError}).\n${child.output()}`);
}

/** Wait for a line on the child's stdout. */
export function waitForLine(child: Child, line: string, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const timer = setTimeout(() => reject(new Error(`${child.name}: no "${line}" within ${timeoutMs} ms.\n${child.output()}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      if (buffer.split("\n").includes(line)) {
        clearTimeout(timer);
        child.proc.stdout!.off("data", onData);
        resolve();
      }
    };
    child.proc.stdout!.on("data", onData);
    void child.exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${child.name} exited (code ${code}, signal ${signal}).\n${child.output()}`));
    });
  });
}

/** Refuse to start when something already listens on the port. */
export function assertPortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(new Error(`Port ${host}:${port} is not free (${error.code ?? error.message}). Stop whatever listens there and run again.`));
    });
    server.listen(port, host, () => server.close(() => resolve()));
  });
}

export type Memory = { rssKb: number; hwmKb: number };

/** VmRSS and VmHWM (peak RSS) of a process, from /proc (Linux only). */
export function readMemory(pid: number): Memory | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const rss = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    const hwm = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    if (!rss) return null;
    return { rssKb: Number(rss[1]), hwmKb: hwm ? Number(hwm[1]) : Number(rss[1]) };
  } catch {
    return null;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

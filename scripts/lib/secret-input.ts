import fs from "node:fs";
import { Writable } from "node:stream";
import { createInterface } from "node:readline/promises";

/**
 * Secrets for the operational scripts (DESIGN.md §8, decision 029): never
 * from the command line where avoidable (`ps` shows it, npm echoes it, the
 * shell keeps it in its history). A value comes from exactly one place; two
 * places at once are refused rather than one silently winning.
 */

export class SecretInputError extends Error {}

/** Longest secret read from standard input or a file (a password is at most 72 bytes; anything this long is a mistake). */
const MAX_BYTES = 4096;

export type SecretSources = {
  /** A command-line flag's value (throwaway setups only). */
  flag?: string | undefined;
  flagName: string;
  /** The environment variable's name; its value is read from process.env. */
  envName: string;
  /** Read it from standard input (--password-stdin). */
  stdin?: boolean | undefined;
  stdinFlagName?: string;
  /** Read it from this file (--totp-secret-file). */
  file?: string | undefined;
  fileFlagName?: string;
};

type Source = { name: string; read: () => Promise<string> };

/** The one source given, or null when none is; SecretInputError when more than one is. */
function chooseSource(sources: SecretSources): Source | null {
  const given: Source[] = [];
  if (sources.flag !== undefined) given.push({ name: `--${sources.flagName}`, read: async () => sources.flag as string });
  if (sources.stdin) given.push({ name: `--${sources.stdinFlagName}`, read: readStdin });
  if (sources.file !== undefined) given.push({ name: `--${sources.fileFlagName}`, read: async () => readSecretFile(sources.file as string) });
  const fromEnv = process.env[sources.envName];
  if (fromEnv !== undefined && fromEnv !== "") given.push({ name: sources.envName, read: async () => fromEnv });
  if (given.length > 1) throw new SecretInputError(`Give it one way only, not ${given.map((s) => s.name).join(" and ")}.`);
  return given[0] ?? null;
}

/** The value from its one source, or null when no source was given. */
export async function readSecret(sources: SecretSources): Promise<string | null> {
  const source = chooseSource(sources);
  return source ? source.read() : null;
}

/** Standard input to its end, without the final line break. */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new SecretInputError("--password-stdin reads from a pipe; on a terminal, leave it out and you will be asked.");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > MAX_BYTES) throw new SecretInputError(`Standard input is longer than ${MAX_BYTES} bytes.`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

function readSecretFile(file: string): string {
  let text: string;
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_BYTES) throw new SecretInputError(`${file} is longer than ${MAX_BYTES} bytes.`);
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if (error instanceof SecretInputError) throw error;
    throw new SecretInputError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? "error"}.`);
  }
  return text.trim();
}

/** Whether a person can be asked (standard input and error are a terminal). */
export function canPrompt(): boolean {
  return !!process.stdin.isTTY && !!process.stderr.isTTY;
}

/**
 * Ask on the terminal without showing what is typed (the prompt goes to
 * standard error, so standard output stays clean). Ctrl-C stops the script.
 */
export async function promptHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  rl.on("SIGINT", () => {
    rl.close();
    process.stderr.write("\n");
    process.exit(130);
  });
  try {
    const answer = rl.question(question);
    muted = true;
    return await answer;
  } finally {
    muted = false;
    rl.close();
    process.stderr.write("\n");
  }
}

import fs from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { EnvError, getEnv, type Env } from "../../app/modules/config/env.server";

type Options = NonNullable<ParseArgsConfig["options"]>;
const HELP = { help: { type: "boolean", short: "h" } } as const;

/** Print `name: message` on stderr and exit with `code` (declare it `const fail: Fail` so TypeScript knows it does not return). */
export type Fail = (code: number, message: string) => never;

/**
 * The operational scripts' way out: `name: message` on stderr and, for the
 * scripts that answer in JSON (`json`, the default), one `{ ok: false, error }`
 * line on stdout; then exit with the code.
 */
export function scriptFail(name: string, { json = true }: { json?: boolean } = {}): Fail {
  return (code, message) => {
    console.error(`${name}: ${message}`);
    if (json) console.log(JSON.stringify({ ok: false, error: message }));
    process.exit(code);
  };
}

/**
 * The operational scripts' command line (db:backup, db:restore, db:replicate,
 * drill, storage:replicate, storage:restore): `.env` loaded when present (the
 * server's environment file); the flags parsed, a bad one exit 2 with the
 * usage, `--help` printing it; `env()` the server's environment, or exit 2
 * naming the bad variable.
 */
export function scriptCli<O extends Options>(fail: Fail, usage: string, options: O) {
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  let parsed;
  try {
    parsed = parseArgs({ options: { ...options, ...HELP } as O & typeof HELP });
  } catch (error) {
    return fail(2, `${(error as Error).message}\n${usage}`);
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  const env = (): Env => {
    try {
      return getEnv();
    } catch (error) {
      if (error instanceof EnvError) return fail(2, error.message);
      throw error;
    }
  };
  return { values: parsed.values, env };
}

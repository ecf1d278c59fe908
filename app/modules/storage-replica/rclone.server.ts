import { spawn } from "node:child_process";
import { z } from "~/modules/validation/z";

/**
 * rclone (Debian's `rclone` package, 1.60+) as the storage replica's one tool:
 * every call goes through `runRclone`, with `--use-json-log` so the copies,
 * the moves into the backup folder and the final stats are read, not guessed.
 * rclone reads its configuration itself: RCLONE_CONFIG (the file) and
 * RCLONE_CONFIG_<REMOTE>_<KEY> variables pass through the environment, never
 * the command line (DESIGN.md §8).
 */

export class ReplicaError extends Error {
  constructor(
    message: string,
    /** usage: bad settings or input (exit 2) · refused: a guard said no (exit 3) · failed: rclone or the disk failed (exit 1) */
    public readonly code: "usage" | "refused" | "failed" = "failed",
  ) {
    super(message);
    this.name = "ReplicaError";
  }
}

const Stats = z.object({
  transfers: z.number(),
  bytes: z.number(),
  checks: z.number(),
  deletes: z.number(),
  renames: z.number(),
  errors: z.number(),
});
export type RcloneStats = z.infer<typeof Stats>;

const LogLine = z.object({ level: z.string(), msg: z.string(), object: z.string().optional(), stats: Stats.optional() });
type LogLine = z.infer<typeof LogLine>;

export type RcloneRun = {
  /** rclone's exit code (3: directory not found). */
  code: number;
  stdout: string;
  /** The last stats block rclone logged (sync, copy, check with -v). */
  stats: RcloneStats | null;
  /** Objects transferred from the source ("Copied (new)", "Copied (replaced existing)"). */
  copied: string[];
  /** Objects moved into --backup-dir. */
  backedUp: string[];
  /** Error lines, as rclone wrote them. */
  errors: string[];
};

/**
 * An rclone path as it may be printed: connection-string parameters
 * (`remote,key=value:path`, which may hold a secret) are cut out.
 */
export function displayReplica(replica: string): string {
  return replica.replace(/^(:?[^,:/]*),[^:]*:/, "$1,…:");
}

/** `name,params:` of `name,params:path`. */
const remoteOf = (rclonePath: string) => rclonePath.slice(0, rclonePath.indexOf(":", rclonePath.startsWith(":") ? 1 : 0) + 1);

/** rclone's messages for a file transferred from the source. */
const COPIED = new Set(["Copied (new)", "Copied (replaced existing)"]);

/** rclone's exit code for "directory not found". */
export const RCLONE_DIR_NOT_FOUND = 3;

/** The warning rclone prints when RCLONE_CONFIG names no file: noise for a local-path replica. */
const NO_CONFIG_WARNING = /^Config file .* not found - using defaults$/;

/**
 * Run `rclone <args> --use-json-log` and collect what it did. Resolves with the
 * exit code whatever it is; throws a ReplicaError only when rclone cannot be run.
 */
export function runRclone(args: string[], { verbose = true }: { verbose?: boolean } = {}): Promise<RcloneRun> {
  const binary = process.env.RCLONE_BINARY || "rclone";
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...args, "--use-json-log", ...(verbose ? ["-v"] : [])], {
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new ReplicaError(`${binary} was not found: install rclone (Debian: apt-get install rclone)`, "usage")
          : new ReplicaError(`cannot run ${binary}: ${error.message}`),
      );
    });
    child.on("close", (code) => {
      const run: RcloneRun = { code: code ?? 1, stdout, stats: null, copied: [], backedUp: [], errors: [] };
      // rclone's messages quote the paths it was given: never a connection string's parameters.
      for (const arg of args) {
        const shown = displayReplica(arg);
        if (shown !== arg) stderr = stderr.split(remoteOf(arg)).join(remoteOf(shown));
      }
      for (const raw of stderr.split("\n")) {
        if (!raw.trim()) continue;
        let line: LogLine | null = null;
        try {
          const parsed = LogLine.safeParse(JSON.parse(raw));
          line = parsed.success ? parsed.data : null;
        } catch {
          line = null;
        }
        if (!line) {
          run.errors.push(raw.trim());
          continue;
        }
        if (line.stats) run.stats = line.stats;
        // Not "Copied (server-side copy)": on an object store, a move into --backup-dir is a server-side copy and a delete.
        if (COPIED.has(line.msg) && line.object) run.copied.push(line.object);
        else if (line.msg === "Moved into backup dir" && line.object) run.backedUp.push(line.object);
        else if ((line.level === "error" || line.level === "critical" || line.level === "warning") && !NO_CONFIG_WARNING.test(line.msg)) {
          run.errors.push(line.object ? `${line.object}: ${line.msg}` : line.msg);
        }
      }
      resolve(run);
    });
  });
}

/** A failed run as one readable message (its last few error lines). */
export function rcloneFailure(what: string, run: RcloneRun): ReplicaError {
  const lines = run.errors.slice(-5).map((line) => `  ${line}`);
  return new ReplicaError(`${what} failed (rclone exit ${run.code})${lines.length ? `:\n${lines.join("\n")}` : ""}`);
}

/** The file paths `rclone lsf -R --files-only` printed (relative to the listed folder). */
export function listedFiles(run: RcloneRun): string[] {
  return run.stdout.split("\n").filter((line) => line !== "" && !line.endsWith("/"));
}

import fs from "node:fs";
import path from "node:path";
import { z } from "~/modules/validation/z";
import type { StorageArea } from "../storage/storage.server";
import { ReplicaError } from "./rclone.server";

/**
 * The storage replica's layout and settings (issue 26 §2). A replica is one
 * rclone path (STORAGE_REPLICA: `remote:bucket/prefix`, or a local or mounted
 * folder) holding
 *
 *   current/<area>/<32 hex>              the stored files as they are now
 *   deleted/<YYYY-MM-DD>/<area>/<32 hex> files deleted or replaced that day (UTC)
 *
 * `rclone sync --backup-dir` moves what a sync would delete into the day's
 * folder, so a deletion reaches the replica only when that folder is pruned,
 * STORAGE_REPLICA_GRACE_DAYS (30) days later. The two folders sit side by side:
 * rclone refuses a backup folder inside the destination.
 */

/** What is replicated: the three areas the database points into (incoming/ and staging/ are work in progress). */
export const REPLICATED_AREAS = ["documents", "fund-documents", "pitch-decks"] as const satisfies readonly StorageArea[];

/** rclone filter arguments: the files of the three areas, nothing else (not the database, not incoming/ or staging/). */
export const AREA_FILTERS = [...REPLICATED_AREAS.flatMap((area) => ["--filter", `+ /${area}/*`]), "--filter", "- **"];

export const DEFAULT_GRACE_DAYS = 30;

/**
 * A file in STORAGE_DIR while storage:restore runs (and left behind when it
 * fails): storage:replicate refuses to run meanwhile, so a half-restored folder
 * is never synced over the replica.
 */
export const RESTORE_MARKER = ".storage-restore-in-progress";

const graceDays = z.coerce
  .number({ message: "must be a whole number of days" })
  .int({ message: "must be a whole number of days" })
  .min(1, { message: "must be at least 1" })
  .max(3650, { message: "must be at most 3650" });

const Settings = z.object({
  STORAGE_REPLICA: z
    .string({ message: "is not set: an rclone path such as offsite:bucket/lumen-ridge, or a folder (see deploy/rclone.conf.example)" })
    .trim()
    .min(1, { message: "is not set: an rclone path such as offsite:bucket/lumen-ridge, or a folder (see deploy/rclone.conf.example)" }),
  STORAGE_REPLICA_GRACE_DAYS: graceDays.default(DEFAULT_GRACE_DAYS),
});

export type ReplicaSettings = { replica: string; graceDays: number };

/**
 * The replica and grace period: flags first (`--to`/`--from`, `--grace-days`),
 * then STORAGE_REPLICA and STORAGE_REPLICA_GRACE_DAYS. Throws a usage
 * ReplicaError naming the setting that is wrong.
 */
export function replicaSettings(flags: { replica?: string; graceDays?: string }, env: NodeJS.ProcessEnv = process.env): ReplicaSettings {
  const source = {
    STORAGE_REPLICA: flags.replica ?? (env.STORAGE_REPLICA || undefined),
    STORAGE_REPLICA_GRACE_DAYS: flags.graceDays ?? (env.STORAGE_REPLICA_GRACE_DAYS || undefined),
  };
  const parsed = Settings.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    const label = name === "STORAGE_REPLICA_GRACE_DAYS" && flags.graceDays !== undefined ? "--grace-days" : name;
    throw new ReplicaError(`${label} ${issue.message}`, "usage");
  }
  const replica = isLocalPath(parsed.data.STORAGE_REPLICA) ? path.resolve(parsed.data.STORAGE_REPLICA) : parsed.data.STORAGE_REPLICA;
  return { replica, graceDays: parsed.data.STORAGE_REPLICA_GRACE_DAYS };
}

/**
 * Is this rclone path a local folder? rclone reads `name:path` (and
 * `:backend:path`) as a remote; a path without a colon before its first slash
 * is local.
 */
export function isLocalPath(replica: string): boolean {
  const colon = replica.indexOf(":");
  const slash = replica.indexOf("/");
  return colon === -1 || (slash !== -1 && slash < colon);
}

/** `base` joined with a sub-path the way rclone reads it (`remote:` + `current` is `remote:current`). */
export function replicaPath(base: string, ...parts: string[]): string {
  const tail = parts.join("/");
  return base.endsWith(":") || base.endsWith("/") ? `${base}${tail}` : `${base}/${tail}`;
}

/** Refuse a local replica inside STORAGE_DIR or around it: a sync would copy the replica into itself. */
export function checkApart(replica: string, storageDir: string) {
  if (!isLocalPath(replica)) return;
  const a = path.resolve(replica);
  const b = path.resolve(storageDir);
  if (a === b || a.startsWith(b + path.sep) || b.startsWith(a + path.sep)) {
    throw new ReplicaError(`the replica (${a}) and STORAGE_DIR (${b}) overlap: keep the replica on another disk or machine`, "usage");
  }
}

/** The stored files of STORAGE_DIR's replicated areas, as `<area>/<name>` (none when the folder is absent). */
export function localAreaFiles(storageDir: string): string[] {
  const files: string[] = [];
  for (const area of REPLICATED_AREAS) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(storageDir, area), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) if (entry.isFile()) files.push(`${area}/${entry.name}`);
  }
  return files;
}

/** `2026-11-27`: a day's folder under deleted/ (UTC). */
export function dayFolder(date: Date): string {
  return date.toISOString().slice(0, 10);
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whole days from a day folder's date to `now` (UTC), or null when the name is not a valid date. */
export function dayFolderAge(name: string, now: Date): number | null {
  const match = DAY.exec(name);
  if (!match) return null;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (dayFolder(new Date(time)) !== name) return null;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((today - time) / 86_400_000);
}

import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm, unlink } from "node:fs/promises";
import path from "node:path";
import { getEnv } from "../config/env.server";
import { logError } from "../logging/log.server";

/**
 * Uploaded files live under STORAGE_DIR with names the server makes
 * (`<area>/<32 hex>`); the database keeps that relative path. Uploads stream
 * into `incoming/` first and are moved into place only once accepted.
 */

/** pitch-decks: founders' uploaded decks (PDF), only ever answered to admins. */
export type StorageArea = "documents" | "fund-documents" | "pitch-decks";

export const STORED_PATH = /^(documents|fund-documents|pitch-decks)\/[0-9a-f]{32}$/;

export function storageRoot(): string {
  return getEnv().STORAGE_DIR;
}

export function incomingDir(): string {
  return path.join(storageRoot(), "incoming");
}

/** Make sure incoming/ exists; call before naming uploads with incomingPath(). */
export async function prepareIncoming(): Promise<void> {
  await mkdir(incomingDir(), { recursive: true });
}

/** A fresh, unused path for an upload in progress. */
export function incomingPath(): string {
  return path.join(incomingDir(), `${randomBytes(16).toString("hex")}.part`);
}

/** Move an accepted upload into its area; returns the relative path to store. */
export async function commitIncoming(tmpPath: string, area: StorageArea): Promise<string> {
  const relative = `${area}/${randomBytes(16).toString("hex")}`;
  await mkdir(path.join(storageRoot(), area), { recursive: true });
  await rename(tmpPath, path.join(storageRoot(), relative));
  return relative;
}

/**
 * The absolute path of a stored file, or null when the stored value is not
 * one the server made (so no value, however crafted, leaves STORAGE_DIR).
 */
export function storedFilePath(relative: string): string | null {
  if (!STORED_PATH.test(relative)) return null;
  const root = storageRoot();
  const absolute = path.resolve(root, relative);
  return absolute.startsWith(root + path.sep) ? absolute : null;
}

/** Remove a stored file; a file already gone is not an error. */
export async function removeStoredFile(relative: string): Promise<void> {
  const absolute = storedFilePath(relative);
  if (absolute) await removeQuietly(absolute);
}

export async function removeQuietly(absolute: string): Promise<void> {
  try {
    await unlink(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") logError(error);
  }
}

/** At start: uploads cut off by a crash or restart are left in incoming/; remove them. */
export async function clearIncoming(): Promise<number> {
  let names: string[];
  try {
    names = await readdir(incomingDir());
  } catch {
    return 0;
  }
  await Promise.all(names.map((name) => rm(path.join(incomingDir(), name), { force: true })));
  return names.length;
}

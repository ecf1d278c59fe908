import { createHash, randomBytes } from "node:crypto";
import { readdir, readFile, rename, stat } from "node:fs/promises";
import path from "node:path";
import { historyImportMessages as m } from "~/content/history-import";
import { AppError } from "../http/app-error";
import { csvFileError } from "../http/csv-upload.server";
import { parseMultipart } from "../storage/multipart.server";
import { incomingDir, incomingPath, prepareIncoming, removeQuietly } from "../storage/storage.server";
import { HISTORY_FILES_BYTES, HISTORY_FORM_BYTES, HISTORY_UPLOAD_TTL_MS } from "./constants";
import type { HistoryFile } from "./csv.server";

/**
 * The history import's uploads (issue 25 §5). A history of 2,000 entities
 * over 40 quarters is 15 MB or more: too large to travel back and forth in a
 * hidden field as the valuations page's text does. So the upload streams
 * straight to STORAGE_DIR/incoming (the one multipart parser, nothing held in
 * memory), and a pair that previews without an error stays there under a
 * random name (`history-<32 hex>.csv`, `history-<32 hex>-pnl.csv`) for an
 * hour. The confirm form carries that name and the SHA-256 of the files'
 * bytes; the import reads them again and checks everything from scratch.
 * Stale pairs are removed at the next upload, a used one at once, and the
 * server's start clears incoming/ (storage.server.ts clearIncoming).
 */

export const UPLOAD_TOKEN = /^[0-9a-f]{32}$/;
const STORED_NAME = /^history-[0-9a-f]{32}(?:-pnl)?\.csv$/;

const storedPath = (token: string, file: HistoryFile) => path.join(incomingDir(), `history-${token}${file === "pnl" ? "-pnl" : ""}.csv`);

export type HistoryUpload = {
  /** The page's text fields (intent, step, _enhanced). */
  fields: Record<string, string>;
  token: string;
  /** The files' names as the client sent them (untrusted: cleaned for showing by the page). */
  names: { history: string; pnl: string | null };
  bytes: { history: Uint8Array; pnl: Uint8Array | null };
  hash: string;
};

const tooLarge = () => csvFileError("history", m.tooLarge(HISTORY_FILES_BYTES / 1024 / 1024), 413);

/** The SHA-256 of the fund's id and the two files' bytes, as the confirm form carries it: a pair confirms on its own fund's page only. */
function hashOf(fundId: string, bytes: { history: Uint8Array; pnl: Uint8Array | null }): string {
  const hash = createHash("sha256").update(`${fundId}\u0000`).update(bytes.history);
  if (bytes.pnl) hash.update("\u0000pnl\u0000").update(bytes.pnl);
  return hash.digest("hex");
}

/** Remove the pairs older than an hour (and any left half-written). */
export async function removeStaleUploads(at: number = Date.now()): Promise<void> {
  let names: string[];
  try {
    names = await readdir(incomingDir());
  } catch {
    return;
  }
  await Promise.all(
    names
      .filter((name) => STORED_NAME.test(name))
      .map(async (name) => {
        const file = path.join(incomingDir(), name);
        const info = await stat(file).catch(() => null);
        if (info && at - info.mtimeMs > HISTORY_UPLOAD_TTL_MS) await removeQuietly(file);
      }),
  );
}

/**
 * Receive the upload form (multipart: `history`, and optionally `pnl`): each
 * file streamed to incoming/ under the pair's name, at most HISTORY_FILES_BYTES
 * together (413 on `history`). A file input left empty is no file. A missing
 * history file is a 400 on `history`.
 */
export async function receiveHistoryUpload(request: Request, fundId: string): Promise<HistoryUpload> {
  await removeStaleUploads();
  const token = randomBytes(16).toString("hex");
  const parts: Partial<Record<HistoryFile, { path: string; name: string; size: number }>> = {};
  const discard = async () => {
    await Promise.all(Object.values(parts).map((part) => removeQuietly(part.path)));
  };
  const { fields } = await parseMultipart(request, {
    maxFileBytes: HISTORY_FILES_BYTES,
    maxBodyBytes: HISTORY_FORM_BYTES,
    tooLarge,
    noBody: () => csvFileError("history", m.historyRequired),
    limits: { files: 2, fields: 10, parts: 12 },
    filesLimit: () => new AppError("bad_request", m.tooManyFiles, { fields: { history: [m.tooManyFiles] } }),
    fieldNames: ["intent", "step", "_enhanced"],
    stopAtRefusal: true,
    prepare: prepareIncoming,
    target: (name, info) => {
      if ((name !== "history" && name !== "pnl") || parts[name]) return null;
      const part = { path: incomingPath(), name: info.clientName, size: 0 };
      parts[name] = part;
      return {
        path: part.path,
        tooLarge,
        written: (size) => {
          part.size = size;
        },
      };
    },
    discard,
    writeErrorField: "history",
  });
  try {
    // A file input left empty sends a part with no name and no bytes.
    for (const file of ["history", "pnl"] as const) {
      const part = parts[file];
      if (part && part.size === 0 && part.name === "") {
        await removeQuietly(part.path);
        delete parts[file];
      }
    }
    const history = parts.history;
    if (!history) throw csvFileError("history", m.historyRequired);
    if (history.size + (parts.pnl?.size ?? 0) > HISTORY_FILES_BYTES) throw tooLarge();
    const bytes = { history: await readFile(history.path), pnl: parts.pnl ? await readFile(parts.pnl.path) : null };
    await rename(history.path, storedPath(token, "history"));
    if (parts.pnl) await rename(parts.pnl.path, storedPath(token, "pnl"));
    return { fields, token, names: { history: history.name, pnl: parts.pnl?.name ?? null }, bytes, hash: hashOf(fundId, bytes) };
  } catch (error) {
    await discard();
    await forgetUpload(token);
    throw error;
  }
}

/**
 * The pair a confirm names: its bytes, when the name is one the server made,
 * the files are still there (less than an hour old) and their hash (with
 * the page's fund) is the one confirmed. Otherwise a 400 saying the preview expired (or changed).
 */
export async function readHistoryUpload(token: string, hash: string, fundId: string, at: number = Date.now()): Promise<{ history: Uint8Array; pnl: Uint8Array | null }> {
  const expired = () => new AppError("bad_request", m.expired, { fields: { form: [m.expired] } });
  if (!UPLOAD_TOKEN.test(token)) throw expired();
  const historyPath = storedPath(token, "history");
  const info = await stat(historyPath).catch(() => null);
  if (!info) throw expired();
  if (at - info.mtimeMs > HISTORY_UPLOAD_TTL_MS) {
    await forgetUpload(token);
    throw expired();
  }
  const history = await readFile(historyPath);
  const pnl = await readFile(storedPath(token, "pnl")).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  const bytes = { history, pnl };
  if (hashOf(fundId, bytes) !== hash) throw new AppError("bad_request", m.changed, { fields: { form: [m.changed] } });
  return bytes;
}

/** Remove a pair (once imported, or refused with errors). */
export async function forgetUpload(token: string): Promise<void> {
  if (!UPLOAD_TOKEN.test(token)) return;
  await Promise.all([removeQuietly(storedPath(token, "history")), removeQuietly(storedPath(token, "pnl"))]);
}

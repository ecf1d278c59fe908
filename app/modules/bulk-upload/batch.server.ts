import { randomBytes } from "node:crypto";
import { readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { getDb } from "~/modules/db/connection.server";
import { lpUsers } from "../../../db/schema";
import { bulkUploadMessages } from "./messages";
import { audit } from "../audit/audit.server";
import { now } from "../config/clock.server";
import { publishLpDocument } from "../documents/documents.server";
import { AppError, isAppError } from "../http/app-error";
import { log, logError } from "../logging/log.server";
import type { LpUser } from "../lp-users/lp-users.server";
import { kickMailer } from "../mail/mail.server";
import { watermarkAvailable, watermarkUnavailableUpload } from "../watermark/availability.server";
import { assertStampable } from "../watermark/watermark.server";
import type { AcceptedFile } from "../storage/accept-upload.server";
import { cleanFileName } from "../storage/file-name";
import { detectContentKind } from "../storage/file-type.server";
import { receiveFiles } from "../storage/receive-files.server";
import { commitIncoming, removeStoredFile, storageRoot, storedFilePath } from "../storage/storage.server";
import {
  BATCH_ID_PATTERN,
  BULK_BATCH_TTL_MS,
  BULK_MAX_FILE_BYTES,
  BULK_MAX_FILES,
  BULK_MAX_TOTAL_BYTES,
  BULK_MULTIPART_OVERHEAD_BYTES,
  type FileProblem,
} from "./constants";
import { matchFileName, type MatchCandidate } from "./match";
import { BatchManifest, BulkUploadFields, type BatchFile } from "./schema";

/**
 * Bulk per-investor upload (issue 15 §1): an admin sends many PDFs at once;
 * each is matched to an approved investor by the reference code or e-mail
 * address in its name (match.ts). The files wait in a batch folder,
 * `STORAGE_DIR/staging/<batchId>/`, with a manifest of the form's fields and
 * each file's match, until the admin publishes the matched ones (each an LP
 * document addressed to its investor alone) or cancels; a batch left for
 * BULK_BATCH_TTL_MS is removed.
 */

const MANIFEST = "manifest.json";

export function stagingRoot(): string {
  return path.join(storageRoot(), "staging");
}

/** The folder of a batch; an id that is not one the server makes is unknown (404). */
function batchDir(batchId: string): string {
  if (!BATCH_ID_PATTERN.test(batchId)) throw batchGone();
  return path.join(stagingRoot(), batchId);
}

function batchGone(): AppError {
  return new AppError("not_found", bulkUploadMessages.batchGone);
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === "ENOENT";
}

/**
 * Every account a file name may name: all of them, so that a name naming an
 * account that may not receive documents (pending, rejected, an admin) is
 * matched to it and flagged, never to another investor with a shorter code
 * or address inside it (match.ts). The preview allows approved investors only.
 */
function candidates(): (MatchCandidate & { name: string; eligible: boolean })[] {
  return getDb()
    .select({ id: lpUsers.id, name: lpUsers.name, email: lpUsers.email, referenceCode: lpUsers.referenceCode, status: lpUsers.status, isAdmin: lpUsers.isAdmin })
    .from(lpUsers)
    .all()
    .map(({ status, isAdmin, ...user }) => ({ ...user, eligible: status === "approved" && !isAdmin }));
}

/** Whether qpdf can stamp this PDF (not encrypted, not broken): the batch's watermark switch needs it. */
async function isStampable(absolute: string): Promise<boolean> {
  try {
    await assertStampable(absolute);
    return true;
  } catch (error) {
    if (isAppError(error)) return false;
    throw error;
  }
}

/**
 * Files checked at once while a batch stages. The checks are mostly qpdf in
 * child processes (at a lower priority): two keep both cores of a small
 * server busy, and halve the wait for a batch of 200.
 */
const STAGE_AT_ONCE = 2;

/**
 * `work` on each item, at most `atOnce` at a time, the results in the items'
 * order. After a failure no new item starts; it is thrown once the running
 * ones have ended (nothing is still writing into the batch folder then).
 */
async function inOrderAtMost<T, R>(atOnce: number, items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (failure === null && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
  if (failure !== null) throw (failure as { error: unknown }).error;
  return results;
}

/** Check one received file and find its investor. */
async function stageFile(
  dir: string,
  part: { storedName: string; size: number; clientName: string },
  investors: readonly (MatchCandidate & { eligible: boolean })[],
  watermark: boolean,
): Promise<BatchFile> {
  const absolute = path.join(dir, part.storedName);
  let problem: FileProblem | null = null;
  if (part.size === 0) problem = "empty";
  else if ((await detectContentKind(absolute)) !== "pdf") problem = "not-pdf";
  else if (watermark && !(await isStampable(absolute))) problem = "not-stampable";
  const fileName = cleanFileName(part.clientName, problem === "not-pdf" ? "" : ".pdf");
  if (problem) {
    // Never published: its bytes need not wait.
    await rm(absolute, { force: true });
    return { clientName: part.clientName, fileName, size: part.size, storedName: null, userId: null, problem };
  }
  const match = matchFileName(fileName, investors);
  const base = { clientName: part.clientName, fileName, size: part.size, storedName: part.storedName };
  if (match.kind === "matched") {
    const eligible = investors.find((i) => i.id === match.userId)?.eligible ?? false;
    return { ...base, userId: match.userId, problem: eligible ? null : "investor-gone" };
  }
  if (match.kind === "ambiguous") return { ...base, userId: null, problem: "ambiguous", candidates: match.userIds };
  return { ...base, userId: null, problem: "no-match" };
}

/**
 * POST of the bulk upload form: stream every file into a new batch folder
 * (limits: BULK_MAX_FILES files, BULK_MAX_FILE_BYTES each, BULK_MAX_TOTAL_BYTES
 * in all; over one, 413 and the folder is gone), check the fields, check each
 * file is a non-empty PDF, match it, and write the manifest. Any refusal
 * leaves nothing on disk. Nothing is published here.
 */
export async function stageBatch(admin: LpUser, request: Request): Promise<{ batchId: string }> {
  const batchId = randomBytes(16).toString("hex");
  const dir = batchDir(batchId);
  const received = await receiveFiles(request, {
    dir,
    fileField: "files",
    fieldNames: ["title", "description", "category", "watermark"],
    maxFileBytes: BULK_MAX_FILE_BYTES,
    maxFiles: BULK_MAX_FILES,
    maxTotalBytes: BULK_MAX_TOTAL_BYTES,
    overheadBytes: BULK_MULTIPART_OVERHEAD_BYTES,
    messages: bulkUploadMessages,
  });
  try {
    const parsed = BulkUploadFields.safeParse(received.fields);
    const errors: Record<string, string[]> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
    if (received.files.length === 0) errors.files = [bulkUploadMessages.filesRequired];
    if (!parsed.success || received.files.length === 0) {
      const first = Object.values(errors)[0]?.[0] ?? bulkUploadMessages.filesRequired;
      throw new AppError("bad_request", first, { fields: errors, values: received.fields });
    }
    // The watermark switch on while watermarks cannot be made (no qpdf 11+): the 400 that says what to install.
    if (parsed.data.watermark && !(await watermarkAvailable())) throw watermarkUnavailableUpload();
    const investors = candidates();
    const files = await inOrderAtMost(STAGE_AT_ONCE, received.files, (part) => stageFile(dir, part, investors, parsed.data.watermark));
    const manifest: BatchManifest = {
      version: 1,
      batchId,
      createdAt: now().toISOString(),
      createdBy: admin.id,
      fields: { title: parsed.data.title, description: parsed.data.description, category: parsed.data.category, watermark: parsed.data.watermark },
      files,
    };
    // Written whole, then renamed: a manifest is never read half-written.
    await writeFile(path.join(dir, `${MANIFEST}.tmp`), JSON.stringify(manifest));
    await rename(path.join(dir, `${MANIFEST}.tmp`), path.join(dir, MANIFEST));
    return { batchId };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isExpired(manifest: BatchManifest): boolean {
  return now().getTime() - new Date(manifest.createdAt).getTime() > BULK_BATCH_TTL_MS;
}

/** A batch's manifest in `dir`; a batch that is gone, unreadable or expired (then removed) is 404. */
async function readManifest(dir: string): Promise<BatchManifest> {
  let text: string;
  try {
    text = await readFile(path.join(dir, MANIFEST), "utf8");
  } catch (error) {
    if (isMissing(error)) throw batchGone();
    throw error;
  }
  const parsed = BatchManifest.safeParse(parseJson(text));
  if (!parsed.success || isExpired(parsed.data)) {
    await rm(dir, { recursive: true, force: true });
    throw batchGone();
  }
  return parsed.data;
}

export type BatchInvestor = { id: string; name: string; email: string; referenceCode: string | null };

/** A file of a batch as the preview shows it: its investor, or why it will not be published. */
export type BatchEntry = {
  fileName: string;
  size: number;
  storedName: string | null;
  investor: BatchInvestor | null;
  problem: FileProblem | null;
  /** An ambiguous file's investors. */
  candidates: BatchInvestor[];
};

export type Batch = {
  batchId: string;
  createdAt: Date;
  fields: BatchManifest["fields"];
  entries: BatchEntry[];
  /** How many files would be published now. */
  publishable: number;
};

/**
 * The manifest's files with their investors as they are now: a matched
 * investor who is no longer an approved investor (revoked, deleted, made an
 * admin since the upload) is flagged, and that file is not published.
 */
function resolveBatch(manifest: BatchManifest): Batch {
  const ids = [...new Set(manifest.files.flatMap((file) => [...(file.userId ? [file.userId] : []), ...(file.candidates ?? [])]))];
  const users = new Map(
    (ids.length === 0
      ? []
      : getDb()
          .select({ id: lpUsers.id, name: lpUsers.name, email: lpUsers.email, referenceCode: lpUsers.referenceCode, status: lpUsers.status, isAdmin: lpUsers.isAdmin })
          .from(lpUsers)
          .where(inArray(lpUsers.id, ids))
          .all()
    ).map((user) => [user.id, user]),
  );
  const investor = (id: string): BatchInvestor | null => {
    const user = users.get(id);
    return user ? { id: user.id, name: user.name, email: user.email, referenceCode: user.referenceCode } : null;
  };
  const entries = manifest.files.map((file): BatchEntry => {
    const base = { fileName: file.fileName, size: file.size, storedName: file.storedName, candidates: (file.candidates ?? []).map(investor).filter((i) => i !== null) };
    if (!file.userId || file.problem) return { ...base, investor: file.userId ? investor(file.userId) : null, problem: file.problem ?? "no-match" };
    const user = users.get(file.userId);
    if (!user || user.status !== "approved" || user.isAdmin) return { ...base, investor: investor(file.userId), problem: "investor-gone" };
    return { ...base, investor: investor(file.userId), problem: null };
  });
  return {
    batchId: manifest.batchId,
    createdAt: new Date(manifest.createdAt),
    fields: manifest.fields,
    entries,
    publishable: entries.filter((entry) => entry.problem === null).length,
  };
}

/** The preview of a staged batch; 404 when it is unknown, gone or expired. */
export async function readBatch(batchId: string): Promise<Batch> {
  return resolveBatch(await readManifest(batchDir(batchId)));
}

/** Cancel a staged batch: its folder and every file in it are removed. 404 when it is already gone. */
export async function cancelBatch(batchId: string): Promise<void> {
  const dir = batchDir(batchId);
  await readManifest(dir);
  // Renamed first: a publish starting now finds nothing to claim.
  const doomed = `${dir}.cancelled-${randomBytes(4).toString("hex")}`;
  try {
    await rename(dir, doomed);
  } catch (error) {
    if (isMissing(error)) throw batchGone();
    throw error;
  }
  await rm(doomed, { recursive: true, force: true });
}

/** Put a claimed batch folder back (a failed publish), unless it is gone. */
async function release(claimed: string, dir: string): Promise<void> {
  try {
    await rename(claimed, dir);
  } catch (error) {
    if (!isMissing(error)) logError(error, "could not give a bulk upload batch back", { dir });
  }
}

/**
 * Publish the matched files of a staged batch: each an LP document with the
 * batch's title, description, category and watermark switch, addressed to its
 * investor alone (audience 'selected'). `expected` is the number the admin
 * confirmed; if the batch would publish another number now (an investor's
 * access changed since the preview), nothing is published (409).
 *
 * The batch folder is first claimed (renamed), so a second confirm or a cancel
 * finds nothing. The files are moved into storage, then every row, its
 * recipient and audit rows and one `document.bulk_published` row are written in
 * one transaction; if that fails, the files go back into the batch, which
 * stays as it was. Once published the batch folder is removed.
 */
export async function publishBatch(admin: LpUser, batchId: string, expected: number): Promise<{ count: number; documentIds: string[] }> {
  const dir = batchDir(batchId);
  const claimed = `${dir}.publishing`;
  try {
    await rename(dir, claimed);
  } catch (error) {
    if (isMissing(error)) throw batchGone();
    throw error;
  }
  try {
    const batch = resolveBatch(await readManifest(claimed));
    if (batch.publishable === 0) throw new AppError("bad_request", bulkUploadMessages.nothingToPublish);
    if (batch.publishable !== expected) throw new AppError("conflict", bulkUploadMessages.batchChanged);
    const publishing = batch.entries.filter((entry) => entry.problem === null && entry.investor && entry.storedName);
    const moved: { filePath: string; from: string }[] = [];
    let documentIds: string[];
    try {
      const files: { userId: string; file: AcceptedFile }[] = [];
      for (const entry of publishing) {
        const from = path.join(claimed, entry.storedName!);
        const filePath = await commitIncoming(from, "documents");
        moved.push({ filePath, from });
        files.push({ userId: entry.investor!.id, file: { filePath, fileName: entry.fileName, fileSize: entry.size, mimeType: "application/pdf" } });
      }
      documentIds = getDb().transaction((tx) => {
        const ids = files.map(
          ({ userId, file }) => publishLpDocument(tx, admin, { ...batch.fields, audience: "selected", recipientIds: [userId] }, file).id,
        );
        audit(tx, "document.bulk_published", {
          actor: { id: admin.id, email: admin.email },
          target: { type: "document", label: batch.fields.title },
          details: {
            actorId: admin.id,
            batchId,
            count: ids.length,
            notPublished: batch.entries.length - ids.length,
            title: batch.fields.title,
            category: batch.fields.category,
          },
        });
        return ids;
      });
    } catch (error) {
      // Back into the batch, so it can be published again (or, failing that, out of storage).
      for (const { filePath, from } of moved) {
        try {
          await rename(storedFilePath(filePath)!, from);
        } catch {
          await removeStoredFile(filePath);
        }
      }
      throw error;
    }
    kickMailer();
    await rm(claimed, { recursive: true, force: true }).catch((error: unknown) => logError(error, "could not remove a published batch", { dir: claimed }));
    return { count: documentIds.length, documentIds };
  } catch (error) {
    await release(claimed, dir);
    throw error;
  }
}

/**
 * Remove the batches staged more than BULK_BATCH_TTL_MS ago (by their
 * manifest's date; a folder without a readable manifest by its last change).
 * Called when the bulk pages load, and at start with `atStart`: then no upload
 * can be in progress, so a folder without a manifest (an upload cut off by a
 * stop) goes at once. Returns how many folders went.
 */
export async function removeStaleBulkBatches({ atStart = false }: { atStart?: boolean } = {}): Promise<number> {
  let names: string[];
  try {
    names = await readdir(stagingRoot());
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
  const cutoff = now().getTime() - BULK_BATCH_TTL_MS;
  let removed = 0;
  for (const name of names) {
    const entry = path.join(stagingRoot(), name);
    // A batch being published (claimed by renaming) is the publisher's; at start, a claim a
    // stop cut short goes back to its batch (files already moved are strays reconcile removes).
    if (!BATCH_ID_PATTERN.test(name)) {
      const claimed = /^([0-9a-f]{32})\.publishing$/.exec(name);
      if (!atStart) continue;
      if (claimed) {
        await rename(entry, path.join(stagingRoot(), claimed[1]!)).catch((error: unknown) => logError(error, "could not return a claimed bulk batch", { entry }));
        continue;
      }
    }
    try {
      let time: number;
      try {
        const manifest = BatchManifest.parse(parseJson(await readFile(path.join(entry, MANIFEST), "utf8")));
        time = new Date(manifest.createdAt).getTime();
      } catch {
        time = atStart ? Number.NEGATIVE_INFINITY : (await stat(entry)).mtimeMs;
      }
      if (time < cutoff) {
        await rm(entry, { recursive: true, force: true });
        removed += 1;
      }
    } catch (error) {
      if (!isMissing(error)) logError(error, "could not remove a stale bulk upload batch", { entry });
    }
  }
  if (removed > 0) log("info", `Removed ${removed} bulk upload batch(es) older than 24 hours`);
  return removed;
}

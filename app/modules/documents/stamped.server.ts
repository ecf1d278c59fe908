import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { now } from "../config/clock.server";
import type { LpUser } from "../auth/session.server";
import { oneOffFileResponse, type StoredFile } from "../storage/file-response.server";
import { incomingPath, prepareIncoming, removeQuietly } from "../storage/storage.server";
import { isWatermarkUnavailableDownload } from "../watermark/availability.server";
import { wantsHtml, watermarkUnavailablePage } from "../watermark/unavailable-page.server";
import { assertStampingAvailable, stampPdf } from "../watermark/watermark.server";

/**
 * An investor's watermarked copy of a stored PDF (issue 15 §3; decision 024):
 * qpdf stamps it into a temporary file under STORAGE_DIR/incoming (the
 * stamping slot is held only while qpdf runs, not while a slow client reads),
 * then the copy is answered whole with 200 and removed. HEAD stamps nothing.
 * A full queue is the watermark module's 503 with Retry-After.
 *
 * Without a usable qpdf (issue 26 §7; watermark/availability.server.ts), GET
 * and HEAD alike are refused with a 503, thrown so no access is recorded: a
 * page for a browser (a navigation asks for text/html), the AppError's JSON
 * for anyone else. Why is logged once, by the watermark module.
 */
export async function stampedFileResponse(
  request: Request,
  file: Pick<StoredFile, "absolutePath" | "contentType" | "fileName" | "disposition">,
  viewer: Pick<LpUser, "name" | "email">,
): Promise<Response> {
  try {
    return await stampedCopy(request, file, viewer);
  } catch (error) {
    if (isWatermarkUnavailableDownload(error) && wantsHtml(request)) throw watermarkUnavailablePage(error, request.method);
    throw error;
  }
}

async function stampedCopy(
  request: Request,
  file: Pick<StoredFile, "absolutePath" | "contentType" | "fileName" | "disposition">,
  viewer: Pick<LpUser, "name" | "email">,
): Promise<Response> {
  if (request.method === "HEAD") {
    await assertStampingAvailable();
    return oneOffFileResponse(request, null, file);
  }
  await prepareIncoming();
  const stamped = await stampPdf(file.absolutePath, { name: viewer.name, email: viewer.email, at: now() }, { signal: request.signal });
  const tmpPath = incomingPath();
  try {
    await pipeline(stamped, createWriteStream(tmpPath, { flags: "wx" }));
    return await oneOffFileResponse(request, tmpPath, file);
  } catch (error) {
    stamped.destroy();
    await removeQuietly(tmpPath);
    throw error;
  }
}

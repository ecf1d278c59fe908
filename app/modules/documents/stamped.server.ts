import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { now } from "../config/clock.server";
import type { LpUser } from "../auth/session.server";
import { oneOffFileResponse, type StoredFile } from "../storage/file-response.server";
import { incomingPath, prepareIncoming, removeQuietly } from "../storage/storage.server";
import { stampPdf } from "../watermark/watermark.server";

/**
 * An investor's watermarked copy of a stored PDF (issue 15 §3; decision 024):
 * qpdf stamps it into a temporary file under STORAGE_DIR/incoming (the
 * stamping slot is held only while qpdf runs, not while a slow client reads),
 * then the copy is answered whole with 200 and removed. HEAD stamps nothing.
 * A full queue is the watermark module's 503 with Retry-After.
 */
export async function stampedFileResponse(
  request: Request,
  file: Pick<StoredFile, "absolutePath" | "contentType" | "fileName" | "disposition">,
  viewer: Pick<LpUser, "name" | "email">,
): Promise<Response> {
  if (request.method === "HEAD") return oneOffFileResponse(request, null, file);
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

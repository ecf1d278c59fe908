import { open, stat, unlink, type FileHandle } from "node:fs/promises";
import contentDisposition from "content-disposition";
import parseRange from "range-parser";
import { uploadMessages } from "~/content/validation";
import { AppError } from "../http/app-error";

/**
 * A stored file as an HTTP answer, streamed from disk: inline (view) or as an
 * attachment (download, RFC 6266 file name), with ETag and Last-Modified
 * (304), single byte ranges (206, 416 when unsatisfiable), `Cache-Control:
 * private, no-store` and nosniff. Several ranges at once get the whole file.
 */

export type StoredFile = {
  absolutePath: string;
  /** Part of the ETag: the document's id (files never change once stored). */
  id: string;
  contentType: string;
  fileName: string;
  disposition: "inline" | "attachment";
};

export type FileAnswer = {
  response: Response;
  /** True when this answer starts the file (200, or 206 from byte 0): it counts as one access. */
  countsAsAccess: boolean;
};

const READ_CHUNK = 256 * 1024;

/**
 * Bytes start..end of a file as a web stream, read on demand in 256 KB
 * chunks handed on without copying (Readable.toWeb copies every chunk).
 */
function fileStream(path: string | FileHandle, start: number, end: number): ReadableStream<Uint8Array> {
  let handle: FileHandle | null = typeof path === "string" ? null : path;
  let position = start;
  const close = async () => {
    const open = handle;
    handle = null;
    await open?.close().catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    async start() {
      if (typeof path === "string") handle = await open(path, "r");
    },
    async pull(controller) {
      try {
        const remaining = end - position + 1;
        const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK, remaining));
        const { bytesRead } = await handle!.read(chunk, 0, chunk.length, position);
        position += bytesRead;
        if (bytesRead > 0) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, bytesRead));
        if (bytesRead === 0 || position > end) {
          await close();
          controller.close();
        }
      } catch (error) {
        await close();
        controller.error(error);
      }
    },
    cancel: close,
  });
}

/**
 * The plain-ASCII `filename=` beside RFC 5987's `filename*=` (accents dropped,
 * anything else as "_"). Without it a Latin-1-only name is sent as raw bytes,
 * which Chromium saves as "_".
 */
function asciiFallback(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "_")
    .replace(/["\\]/g, "_");
}

function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

function notModifiedSince(header: string | null, mtimeMs: number): boolean {
  if (!header) return false;
  const since = Date.parse(header);
  return !Number.isNaN(since) && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

/** The headers every file answer has: its type, disposition (RFC 6266 name), no caching, nosniff, and a viewer-only CSP inline. */
function baseHeaders(file: Pick<StoredFile, "contentType" | "fileName" | "disposition">): Headers {
  const headers = new Headers({
    "Content-Type": file.contentType,
    "Content-Disposition": contentDisposition(file.fileName, { type: file.disposition, fallback: asciiFallback(file.fileName) }),
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
  });
  // A viewed PDF is shown by the browser's viewer, which object-src 'none' would block; nothing else may load.
  if (file.disposition === "inline") {
    headers.set("Content-Security-Policy", "default-src 'none'; object-src 'self'; frame-ancestors 'none'; base-uri 'none'");
  }
  return headers;
}

/**
 * A copy made for this one request (a watermarked PDF) in a temporary file:
 * always the whole file with 200 (a Range is ignored: each copy differs), no
 * validators, `Accept-Ranges: none`. The file is unlinked once opened, so it
 * is gone from disk when the answer ends or the client leaves. HEAD: the
 * headers only (give `tmpPath` null; nothing is made).
 */
export async function oneOffFileResponse(
  request: Request,
  tmpPath: string | null,
  file: Pick<StoredFile, "contentType" | "fileName" | "disposition">,
): Promise<Response> {
  const headers = baseHeaders(file);
  headers.set("Accept-Ranges", "none");
  if (tmpPath === null || request.method === "HEAD") return new Response(null, { status: 200, headers });
  const handle = await open(tmpPath, "r");
  try {
    const { size } = await handle.stat();
    await unlink(tmpPath);
    headers.set("Content-Length", String(size));
    return new Response(size === 0 ? null : fileStream(handle, 0, size - 1), { status: 200, headers });
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

export async function fileResponse(request: Request, file: StoredFile): Promise<FileAnswer> {
  let size: number;
  let mtimeMs: number;
  try {
    const info = await stat(file.absolutePath);
    if (!info.isFile()) throw new Error("not a file");
    size = info.size;
    mtimeMs = info.mtimeMs;
  } catch {
    throw new AppError("not_found", uploadMessages.fileNotFound);
  }

  const etag = `"${file.id}-${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
  const headers = baseHeaders(file);
  headers.set("ETag", etag);
  headers.set("Last-Modified", new Date(mtimeMs).toUTCString());
  headers.set("Accept-Ranges", "bytes");

  // Conditional requests (RFC 9110 §13.2.2: If-None-Match wins over If-Modified-Since).
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch ? matchesEtag(ifNoneMatch, etag) : notModifiedSince(request.headers.get("if-modified-since"), mtimeMs)) {
    headers.delete("Content-Type");
    return { response: new Response(null, { status: 304, headers }), countsAsAccess: false };
  }

  let start = 0;
  let end = size - 1;
  let status = 200;
  const rangeHeader = request.headers.get("range");
  const ifRange = request.headers.get("if-range");
  // If-Range: a strong ETag or the exact Last-Modified date, else the whole file.
  const ifRangeHolds =
    ifRange === null || (ifRange.startsWith('"') ? ifRange === etag : ifRange === headers.get("Last-Modified"));
  const rangeApplies = rangeHeader !== null && request.method === "GET" && ifRangeHolds;
  if (rangeApplies) {
    const ranges = parseRange(size, rangeHeader, { combine: true });
    if (ranges === -1) {
      headers.delete("Content-Disposition");
      headers.set("Content-Range", `bytes */${size}`);
      headers.set("Content-Type", "application/json; charset=utf-8");
      return {
        response: new Response(JSON.stringify({ error: uploadMessages.rangeNotSatisfiable }), { status: 416, headers }),
        countsAsAccess: false,
      };
    }
    if (ranges !== -2 && ranges.type === "bytes" && ranges.length === 1) {
      start = ranges[0]!.start;
      end = ranges[0]!.end;
      status = 206;
      headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
    }
  }

  const length = size === 0 ? 0 : end - start + 1;
  headers.set("Content-Length", String(length));
  const body = request.method === "HEAD" || length === 0 ? null : fileStream(file.absolutePath, start, end);
  return {
    response: new Response(body, { status, headers }),
    countsAsAccess: start === 0 && request.method !== "HEAD",
  };
}

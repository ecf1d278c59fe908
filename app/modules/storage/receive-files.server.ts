import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import busboy from "busboy";
import { uploadMessages } from "~/content/validation";
import { AppError } from "../http/app-error";
import { logError } from "../logging/log.server";
import { writeFailure } from "./upload.server";

/**
 * Streaming multipart parsing of many files at once (busboy, as upload.server.ts
 * does for one; decision 011): every file part goes straight into `dir` under
 * a server-made name, counted as it arrives: each file against `maxFileBytes`,
 * all of them together against `maxTotalBytes`, and their number against
 * `maxFiles`. The first limit passed stops the upload (413 with the caller's
 * message); that, or any other failure, removes `dir` and everything in it.
 * Nothing is held in memory.
 */

export type ReceivedPart = {
  /** The file's name in `dir`: 32 hex digits, made by the server. */
  storedName: string;
  size: number;
  /** The name the client sent (untrusted; see cleanFileName). */
  clientName: string;
  /** The MIME type the client declared (untrusted). */
  clientMime: string;
};

export type ReceivedFiles = { fields: Record<string, string>; files: ReceivedPart[] };

export type ReceiveFilesOptions = {
  /** A folder of its own for this upload (made here; removed here on failure). */
  dir: string;
  fileField: string;
  /** The text fields to keep (the first value of each); others are ignored. */
  fieldNames: readonly string[];
  maxFileBytes: number;
  maxFiles: number;
  maxTotalBytes: number;
  /** Room for the multipart framing and text fields, beyond maxTotalBytes, in a declared Content-Length. */
  overheadBytes: number;
  /** The answers over each limit (413). */
  messages: { fileTooLarge: (clientName: string) => string; tooManyFiles: string; tooLarge: string };
};

const MAX_FIELD_BYTES = 16 * 1024;
const MAX_FIELDS = 20;

/** A file picker with nothing chosen still sends one part: no name, no bytes. */
function isNoFileChosen(part: ReceivedPart): boolean {
  return part.clientName === "" && part.size === 0;
}

export async function receiveFiles(request: Request, options: ReceiveFilesOptions): Promise<ReceivedFiles> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw new AppError("unsupported_media_type", uploadMessages.notMultipart);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > options.maxTotalBytes + options.overheadBytes) throw new AppError("payload_too_large", options.messages.tooLarge);
  if (!request.body) throw new AppError("bad_request", uploadMessages.fileRequired);

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: {
        // busboy signals 'limit' on reaching this size; one byte past the maximum means too large.
        fileSize: options.maxFileBytes + 1,
        files: options.maxFiles,
        fields: MAX_FIELDS,
        parts: options.maxFiles + MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    });
  } catch {
    throw new AppError("bad_request", uploadMessages.malformed);
  }
  await mkdir(options.dir, { recursive: true });

  const fields: Record<string, string> = {};
  const files: ReceivedPart[] = [];
  const writes: Promise<void>[] = [];
  const streams: { destroy: () => void }[] = [];
  let total = 0;
  let writeError: unknown = null;
  let failure: AppError | null = null;
  /**
   * The first refusal wins; parsing stops (the rest of the body is not read).
   * Not inside busboy's own call: it goes on using the part it was parsing
   * after emitting, so the parser is destroyed once that call is over.
   */
  const fail = (error: AppError) => {
    if (failure) return;
    failure = error;
    setImmediate(() => parser.destroy(error));
  };

  parser.on("field", (name, value, info) => {
    if (!options.fieldNames.includes(name) || name in fields) return;
    if (info.valueTruncated) return fail(new AppError("bad_request", uploadMessages.fieldTooLong(name), { fields: { [name]: [uploadMessages.fieldTooLong(name)] } }));
    fields[name] = value;
  });

  parser.on("file", (name, stream, info) => {
    if (name !== options.fileField || failure) {
      // Skipped, but still a stream: a body cut off mid-part errors it, and an
      // error without a listener would take the process down.
      stream.on("error", () => {});
      stream.resume();
      return;
    }
    const part: ReceivedPart = { storedName: randomBytes(16).toString("hex"), size: 0, clientName: info.filename ?? "", clientMime: info.mimeType ?? "" };
    files.push(part);
    stream.on("limit", () => fail(new AppError("payload_too_large", options.messages.fileTooLarge(part.clientName))));
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        total += chunk.byteLength;
        if (total > options.maxTotalBytes) {
          fail(new AppError("payload_too_large", options.messages.tooLarge));
          return done(new Error("batch too large"));
        }
        done(null, chunk);
      },
    });
    const out = createWriteStream(path.join(options.dir, part.storedName), { flags: "wx" });
    // As in upload.server.ts: wait for 'close' before anything may remove the file.
    const outClosed = new Promise<void>((resolve) => out.once("close", () => resolve()));
    streams.push(stream, counter, out);
    // Never left rejected: a failed write is noted and reported after parsing.
    writes.push(
      pipeline(stream, counter, out)
        .then(
          () => {
            part.size = out.bytesWritten;
          },
          (error: unknown) => {
            if (failure) return;
            writeError ??= error;
            parser.destroy(error instanceof Error ? error : new Error(String(error)));
          },
        )
        .then(() => outClosed),
    );
  });

  parser.on("filesLimit", () => fail(new AppError("payload_too_large", options.messages.tooManyFiles)));
  parser.on("partsLimit", () => fail(new AppError("bad_request", uploadMessages.tooManyFields)));
  parser.on("fieldsLimit", () => fail(new AppError("bad_request", uploadMessages.tooManyFields)));

  const source = Readable.fromWeb(request.body as NodeWebStream<Uint8Array>);
  try {
    await pipeline(source, parser);
    await Promise.all(writes);
  } catch (error) {
    for (const stream of streams) stream.destroy();
    await Promise.all(writes);
    await removeDir(options.dir);
    if (failure) throw failure;
    if (writeError) throw writeFailure(writeError, options.fileField);
    // The body broke off or was not valid multipart (client gone, bad framing, over the server limit).
    if (error instanceof AppError) throw error;
    throw new AppError("bad_request", uploadMessages.malformed);
  }
  if (failure || writeError) {
    await removeDir(options.dir);
    if (failure) throw failure;
    throw writeFailure(writeError, options.fileField);
  }
  // An empty picker's part is no file: forget it (and its empty file).
  const chosen: ReceivedPart[] = [];
  for (const part of files) {
    if (isNoFileChosen(part)) await rm(path.join(options.dir, part.storedName), { force: true });
    else chosen.push(part);
  }
  return { fields, files: chosen };
}

async function removeDir(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true });
  } catch (error) {
    logError(error, "could not remove a refused upload's folder", { dir });
  }
}


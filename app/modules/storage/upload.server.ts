import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import busboy from "busboy";
import { uploadMessages } from "~/content/validation";
import { AppError } from "../http/app-error";
import { logError } from "../logging/log.server";
import { incomingPath, prepareIncoming, removeQuietly, storageRoot } from "./storage.server";

/**
 * Streaming multipart parsing (busboy; see docs/decisions/011): the file part
 * goes straight to a temporary file under STORAGE_DIR/incoming, counted as it
 * arrives. Over the limit, parsing stops with 413 and the partial file is
 * removed; any other failure removes it too. Nothing is held in memory.
 */

export type ReceivedFile = {
  /** Temporary path; the caller moves it into place or removes it. */
  tmpPath: string;
  size: number;
  /** The name the client sent (untrusted; see cleanFileName). */
  clientName: string;
  /** The MIME type the client declared (untrusted). */
  clientMime: string;
};

/** The text fields (the first value of each kept name) and, for repeated names, every value in order. */
export type ReceivedUpload = { fields: Record<string, string>; lists: Record<string, string[]>; file: ReceivedFile | null };

export type ReceiveOptions = {
  fileField: string;
  maxFileBytes: number;
  /** The text fields to keep; others are ignored. */
  fieldNames: readonly string[];
  /** Fields that may repeat (e.g. `recipientIds`), kept in `lists`, and how many values they may have in all. */
  repeated?: { names: readonly string[]; max: number };
  /**
   * When set, the file is not taken: its bytes are read past without a byte
   * written, and a file with any bytes fails the upload with this error (the
   * text fields are still read; a part with no bytes is no file).
   */
  refuseFile?: () => AppError;
};

/** Room for the multipart framing and the text fields around the file. */
export const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;
const MAX_FIELD_BYTES = 16 * 1024;
const DISK_ERRORS = new Set(["ENOSPC", "EDQUOT", "EACCES", "EPERM", "EROFS", "EIO", "EMFILE", "ENFILE"]);

export function fileTooLarge(): AppError {
  return new AppError("payload_too_large", uploadMessages.fileTooLarge, {
    fields: { file: [uploadMessages.fileTooLarge] },
  });
}

export async function receiveUpload(request: Request, options: ReceiveOptions): Promise<ReceivedUpload> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new AppError("unsupported_media_type", uploadMessages.notMultipart);
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > options.maxFileBytes + MULTIPART_OVERHEAD_BYTES) throw fileTooLarge();
  if (!request.body) throw new AppError("bad_request", uploadMessages.fileRequired, { fields: { file: [uploadMessages.fileRequired] } });

  await prepareIncoming();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: {
        // busboy signals 'limit' on reaching this size; one byte past the maximum means too large.
        fileSize: options.maxFileBytes + 1,
        files: 1,
        fields: 20 + (options.repeated?.max ?? 0),
        parts: 25 + (options.repeated?.max ?? 0),
        fieldSize: MAX_FIELD_BYTES,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    });
  } catch {
    throw new AppError("bad_request", uploadMessages.malformed);
  }

  const fields: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  const tmpPaths: string[] = [];
  const writes: Promise<void>[] = [];
  const streams: { destroy: () => void }[] = [];
  let writeError: unknown = null;
  let file: ReceivedFile | null = null;
  let failure: AppError | null = null;
  const fail = (error: AppError) => {
    failure ??= error;
  };

  parser.on("field", (name, value, info) => {
    const repeated = options.repeated?.names.includes(name) ?? false;
    if (!repeated && (!options.fieldNames.includes(name) || name in fields)) return;
    if (info.valueTruncated) return fail(new AppError("bad_request", uploadMessages.fieldTooLong(name), { fields: { [name]: [uploadMessages.fieldTooLong(name)] } }));
    if (repeated) (lists[name] ??= []).push(value);
    else fields[name] = value;
  });

  parser.on("file", (name, stream, info) => {
    const { refuseFile } = options;
    if (name === options.fileField && !file && refuseFile) {
      stream.on("error", () => {});
      stream.on("data", () => {
        if (!failure) fail(refuseFile());
      });
      return;
    }
    if (name !== options.fileField || file) {
      // Skipped, but still a stream: a body cut off mid-part errors it, and an
      // error without a listener would take the process down.
      stream.on("error", () => {});
      stream.resume();
      return;
    }
    const received: ReceivedFile = {
      tmpPath: incomingPath(),
      size: 0,
      clientName: info.filename ?? "",
      clientMime: info.mimeType ?? "",
    };
    file = received;
    tmpPaths.push(received.tmpPath);
    stream.on("limit", () => fail(fileTooLarge()));
    const out = createWriteStream(received.tmpPath, { flags: "wx" });
    // pipeline() can settle on a source error while the file is still being
    // opened; removing it then would run before the open creates it, and a
    // 0-byte file would stay behind. Every path below waits for 'close'
    // (emitted once the file is opened and closed, or failed to open).
    const outClosed = new Promise<void>((resolve) => out.once("close", () => resolve()));
    streams.push(stream, out);
    // Never left rejected: a failed write is noted and reported after parsing.
    writes.push(
      pipeline(stream, out)
        .then(
          () => {
            received.size = out.bytesWritten;
          },
          (error: unknown) => {
            writeError ??= error;
            // Stop parsing: busboy would otherwise wait forever for the destroyed file stream to drain.
            parser.destroy(error instanceof Error ? error : new Error(String(error)));
          },
        )
        .then(() => outClosed),
    );
  });

  parser.on("filesLimit", () => fail(new AppError("bad_request", uploadMessages.oneFileOnly)));
  parser.on("partsLimit", () => fail(new AppError("bad_request", uploadMessages.tooManyFields)));
  parser.on("fieldsLimit", () => fail(new AppError("bad_request", uploadMessages.tooManyFields)));

  const source = Readable.fromWeb(request.body as NodeWebStream<Uint8Array>);
  try {
    await pipeline(source, parser);
    await Promise.all(writes);
  } catch (error) {
    for (const stream of streams) stream.destroy();
    await Promise.all(writes);
    await Promise.all(tmpPaths.map(removeQuietly));
    if (failure) throw failure;
    if (writeError) throw writeFailure(writeError);
    // The body broke off or was not valid multipart (client gone, bad framing, over the server limit).
    if (error instanceof AppError) throw error;
    throw new AppError("bad_request", uploadMessages.malformed);
  }
  if (failure || writeError) {
    await Promise.all(tmpPaths.map(removeQuietly));
    if (failure) throw failure;
    throw writeFailure(writeError);
  }
  return { fields, lists, file };
}

/**
 * A failed write of an upload's file. A full disk (or quota) is told to the
 * user as 507 with a message under `field` and logged for the operator;
 * another disk problem is ours (500, logged); anything else is a broken
 * upload (400). Shared with the bulk upload's receiver.
 */
export function writeFailure(error: unknown, field = "file"): unknown {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  if (code === "ENOSPC" || code === "EDQUOT") {
    logError(error, "storage full: an upload was refused", { storageDir: storageRoot() });
    return new AppError("insufficient_storage", uploadMessages.storageFull, { fields: { [field]: [uploadMessages.storageFull] } });
  }
  if (DISK_ERRORS.has(code)) return error;
  return new AppError("bad_request", uploadMessages.malformed);
}

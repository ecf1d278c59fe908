import { createWriteStream } from "node:fs";
import { Readable, type Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import busboy from "busboy";
import { uploadMessages } from "~/content/validation";
import { AppError } from "../http/app-error";
import { logError } from "../logging/log.server";
import { storageRoot } from "./storage.server";

/**
 * The one streaming multipart parser (busboy; decision 011), under both
 * receivers: one file (upload.server.ts) and many (receive-files.server.ts).
 * Each file part the caller takes goes straight to the file it names, counted
 * as it arrives; nothing is held in memory. A refusal (a limit passed, a field
 * too long) or a failed write ends in the refusal's AppError after the
 * caller's `discard` has removed what was written; a body that breaks off or
 * is not valid multipart is a 400.
 */

/** What the client said of a file part (untrusted). */
export type PartInfo = { clientName: string; clientMime: string };

/** Where a file part goes: written to `path` (through `through` first), or read past with a refusal if it has any bytes. */
export type PartTarget =
  | {
      path: string;
      /** A stage between the part and its file; it refuses the upload by failing with an AppError. */
      through?: Transform;
      /** The refusal once the part passes maxFileBytes. */
      tooLarge: () => AppError;
      /** Called with the bytes written once the part is whole. */
      written: (size: number) => void;
    }
  | { refuse: () => AppError };

export type ParseOptions = {
  maxFileBytes: number;
  /** A declared Content-Length over this is refused with `tooLarge` before a byte is read. */
  maxBodyBytes: number;
  tooLarge: () => AppError;
  noBody: () => AppError;
  limits: { files: number; fields: number; parts: number };
  filesLimit: () => AppError;
  /** The text fields to keep (the first value of each); others are ignored. */
  fieldNames: readonly string[];
  /** Fields that may repeat, each value kept in order in `lists`. */
  repeated?: readonly string[];
  /** Stop reading at the first refusal (else the body is read to its end, then refused). */
  stopAtRefusal: boolean;
  /** Made ready once the body is known to be multipart (e.g. the target folder). */
  prepare: () => Promise<void>;
  /** A file part's target; null skips the part (its bytes are read past). */
  target: (field: string, info: PartInfo) => PartTarget | null;
  /** Removes everything written, on any failure. */
  discard: () => Promise<void>;
  /** The field a full disk's message is shown under. */
  writeErrorField: string;
};

export type ParsedFields = { fields: Record<string, string>; lists: Record<string, string[]> };

const MAX_FIELD_BYTES = 16 * 1024;
const DISK_ERRORS = new Set(["ENOSPC", "EDQUOT", "EACCES", "EPERM", "EROFS", "EIO", "EMFILE", "ENFILE"]);

export async function parseMultipart(request: Request, options: ParseOptions): Promise<ParsedFields> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw new AppError("unsupported_media_type", uploadMessages.notMultipart);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > options.maxBodyBytes) throw options.tooLarge();
  if (!request.body) throw options.noBody();

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: {
        // busboy signals 'limit' on reaching this size; one byte past the maximum means too large.
        fileSize: options.maxFileBytes + 1,
        ...options.limits,
        fieldSize: MAX_FIELD_BYTES,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    });
  } catch {
    throw new AppError("bad_request", uploadMessages.malformed);
  }
  await options.prepare();

  const fields: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  const writes: Promise<void>[] = [];
  const streams: { destroy: () => void }[] = [];
  let writeError: unknown = null;
  let failure: AppError | null = null;
  /**
   * The first refusal wins. When it stops the parsing, not inside busboy's own
   * call: it goes on using the part it was parsing after emitting, so the
   * parser is destroyed once that call is over.
   */
  const fail = (error: AppError) => {
    if (failure) return;
    failure = error;
    if (options.stopAtRefusal) setImmediate(() => parser.destroy(error));
  };

  parser.on("field", (name, value, info) => {
    const repeated = options.repeated?.includes(name) ?? false;
    if (!repeated && (!options.fieldNames.includes(name) || name in fields)) return;
    if (info.valueTruncated) return fail(new AppError("bad_request", uploadMessages.fieldTooLong(name), { fields: { [name]: [uploadMessages.fieldTooLong(name)] } }));
    if (repeated) (lists[name] ??= []).push(value);
    else fields[name] = value;
  });

  parser.on("file", (name, stream, info) => {
    // Every part is a stream, taken or not: a body cut off mid-part errors it,
    // and an error without a listener would take the process down.
    stream.on("error", () => {});
    const target = failure && options.stopAtRefusal ? null : options.target(name, { clientName: info.filename ?? "", clientMime: info.mimeType ?? "" });
    if (!target) {
      stream.resume();
      return;
    }
    if ("refuse" in target) {
      stream.on("data", () => {
        if (!failure) fail(target.refuse());
      });
      return;
    }
    stream.on("limit", () => fail(target.tooLarge()));
    const out = createWriteStream(target.path, { flags: "wx" });
    // pipeline() can settle on a source error while the file is still being
    // opened; removing it then would run before the open creates it, and a
    // 0-byte file would stay behind. Every path below waits for 'close'
    // (emitted once the file is opened and closed, or failed to open).
    const outClosed = new Promise<void>((resolve) => out.once("close", () => resolve()));
    const stages = target.through ? [stream, target.through, out] : [stream, out];
    streams.push(...stages);
    // Never left rejected: a failed write is noted and reported after parsing.
    writes.push(
      (target.through ? pipeline(stream, target.through, out) : pipeline(stream, out))
        .then(
          () => target.written(out.bytesWritten),
          (error: unknown) => {
            // A stage of `through` refuses with an AppError; anything else is a failed write.
            if (error instanceof AppError) fail(error);
            else writeError ??= error;
            // A refusal that stops the parsing has done so; otherwise stop it here:
            // busboy would wait forever for the destroyed file stream to drain.
            if (failure && options.stopAtRefusal) return;
            parser.destroy(error instanceof Error ? error : new Error(String(error)));
          },
        )
        .then(() => outClosed),
    );
  });

  parser.on("filesLimit", () => fail(options.filesLimit()));
  parser.on("partsLimit", () => fail(new AppError("bad_request", uploadMessages.tooManyFields)));
  parser.on("fieldsLimit", () => fail(new AppError("bad_request", uploadMessages.tooManyFields)));

  const source = Readable.fromWeb(request.body as NodeWebStream<Uint8Array>);
  try {
    await pipeline(source, parser);
    await Promise.all(writes);
  } catch (error) {
    for (const stream of streams) stream.destroy();
    await Promise.all(writes);
    await options.discard();
    if (failure) throw failure;
    if (writeError) throw writeFailure(writeError, options.writeErrorField);
    // The body broke off or was not valid multipart (client gone, bad framing, over the server limit).
    if (error instanceof AppError) throw error;
    throw new AppError("bad_request", uploadMessages.malformed);
  }
  if (failure || writeError) {
    await options.discard();
    if (failure) throw failure;
    throw writeFailure(writeError, options.writeErrorField);
  }
  return { fields, lists };
}

/**
 * A failed write of an upload's file. A full disk (or quota) is told to the
 * user as 507 with a message under `field` and logged for the operator;
 * another disk problem is ours (500, logged); anything else is a broken
 * upload (400).
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

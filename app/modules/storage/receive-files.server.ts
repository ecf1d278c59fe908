import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { uploadMessages } from "~/content/validation";
import { AppError } from "../http/app-error";
import { logError } from "../logging/log.server";
import { parseMultipart } from "./multipart.server";

/**
 * Many files of one multipart body (multipart.server.ts, the parser under
 * upload.server.ts's one file too; decision 011): every file part goes straight into `dir` under
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

const MAX_FIELDS = 20;

/** A file picker with nothing chosen still sends one part: no name, no bytes. */
function isNoFileChosen(part: ReceivedPart): boolean {
  return part.clientName === "" && part.size === 0;
}

export async function receiveFiles(request: Request, options: ReceiveFilesOptions): Promise<ReceivedFiles> {
  const files: ReceivedPart[] = [];
  let total = 0;
  const tooLarge = () => new AppError("payload_too_large", options.messages.tooLarge);
  const { fields } = await parseMultipart(request, {
    maxFileBytes: options.maxFileBytes,
    maxBodyBytes: options.maxTotalBytes + options.overheadBytes,
    tooLarge,
    noBody: () => new AppError("bad_request", uploadMessages.fileRequired),
    limits: { files: options.maxFiles, fields: MAX_FIELDS, parts: options.maxFiles + MAX_FIELDS },
    filesLimit: () => new AppError("payload_too_large", options.messages.tooManyFiles),
    fieldNames: options.fieldNames,
    stopAtRefusal: true,
    prepare: async () => {
      await mkdir(options.dir, { recursive: true });
    },
    target: (name, info) => {
      if (name !== options.fileField) return null;
      const part: ReceivedPart = { storedName: randomBytes(16).toString("hex"), size: 0, ...info };
      files.push(part);
      // All the files together, counted as they arrive.
      const through = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          total += chunk.byteLength;
          if (total > options.maxTotalBytes) return done(tooLarge());
          done(null, chunk);
        },
      });
      return {
        path: path.join(options.dir, part.storedName),
        through,
        tooLarge: () => new AppError("payload_too_large", options.messages.fileTooLarge(part.clientName)),
        written: (size) => {
          part.size = size;
        },
      };
    },
    discard: () => removeDir(options.dir),
    writeErrorField: options.fileField,
  });
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


import { uploadMessages } from "~/content/validation";
import { AppError } from "../http/app-error";
import { parseMultipart } from "./multipart.server";
import { incomingPath, prepareIncoming, removeQuietly } from "./storage.server";

/**
 * One file of a multipart body (multipart.server.ts; decision 011): the file
 * part goes straight to a temporary file under STORAGE_DIR/incoming, counted
 * as it arrives. Over the limit the upload is refused with 413 and the partial
 * file is removed; any other failure removes it too. Nothing is held in memory.
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

export function fileTooLarge(): AppError {
  return new AppError("payload_too_large", uploadMessages.fileTooLarge, {
    fields: { file: [uploadMessages.fileTooLarge] },
  });
}

export async function receiveUpload(request: Request, options: ReceiveOptions): Promise<ReceivedUpload> {
  let file: ReceivedFile | null = null;
  const { fields, lists } = await parseMultipart(request, {
    maxFileBytes: options.maxFileBytes,
    maxBodyBytes: options.maxFileBytes + MULTIPART_OVERHEAD_BYTES,
    tooLarge: fileTooLarge,
    noBody: () => new AppError("bad_request", uploadMessages.fileRequired, { fields: { file: [uploadMessages.fileRequired] } }),
    limits: { files: 1, fields: 20 + (options.repeated?.max ?? 0), parts: 25 + (options.repeated?.max ?? 0) },
    filesLimit: () => new AppError("bad_request", uploadMessages.oneFileOnly),
    fieldNames: options.fieldNames,
    repeated: options.repeated?.names,
    stopAtRefusal: false,
    prepare: prepareIncoming,
    target: (name, info) => {
      if (name !== options.fileField || file) return null;
      if (options.refuseFile) return { refuse: options.refuseFile };
      const received: ReceivedFile = { tmpPath: incomingPath(), size: 0, ...info };
      file = received;
      return {
        path: received.tmpPath,
        tooLarge: fileTooLarge,
        written: (size) => {
          received.size = size;
        },
      };
    },
    discard: async () => {
      if (file) await removeQuietly(file.tmpPath);
    },
    writeErrorField: "file",
  });
  return { fields, lists, file };
}

import type { z } from "zod";
import { uploadMessages } from "~/content/validation";
import { AppError, type FieldErrors } from "../http/app-error";
import { checkFileType } from "./file-type.server";
import { cleanFileName, EXTENSION_FOR_TYPE } from "./file-name";
import { commitIncoming, removeQuietly, removeStoredFile, type StorageArea } from "./storage.server";
import { receiveUpload, type ReceivedUpload } from "./upload.server";

/**
 * Check a received upload: the text fields, then the file (present, not
 * empty, an allowed MIME type whose content matches). Every problem is
 * reported at once, as field messages.
 */
export async function validateUpload<T>(
  upload: ReceivedUpload,
  parseFields: (fields: UploadFieldValues) => { data: T } | { errors: FieldErrors },
): Promise<{ fields: T; contentType: string }> {
  const errors: FieldErrors = {};
  const parsed = parseFields({ ...upload.fields, ...upload.lists });
  if ("errors" in parsed) Object.assign(errors, parsed.errors);
  let contentType: string | null = null;
  const file = upload.file;
  if (!file || (file.size === 0 && file.clientName === "")) errors.file = [uploadMessages.fileRequired];
  else if (file.size === 0) errors.file = [uploadMessages.fileEmpty];
  else {
    contentType = await checkFileType(file.tmpPath, file.clientMime);
    if (!contentType) errors.file = [uploadMessages.fileType];
  }
  if ("errors" in parsed || !contentType) {
    const first = Object.values(errors)[0]?.[0] ?? uploadMessages.malformed;
    throw new AppError("bad_request", first, { fields: errors, values: upload.fields });
  }
  return { fields: parsed.data, contentType };
}

/** An upload's text fields: one value per name, every value for a repeated name. */
export type UploadFieldValues = Record<string, string | string[]>;

/** Adapt a zod schema of the text fields for validateUpload: its data, or field messages. */
export function zodFields<S extends z.ZodType>(schema: S) {
  return (fields: UploadFieldValues): { data: z.output<S> } | { errors: FieldErrors } => {
    const result = schema.safeParse(fields);
    if (result.success) return { data: result.data };
    const errors: FieldErrors = {};
    for (const issue of result.error.issues) (errors[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
    return { errors };
  };
}


/** An accepted upload, moved into storage: what a document row needs. */
export type AcceptedFile = { filePath: string; fileName: string; fileSize: number; mimeType: string };

/**
 * The whole upload of one document, for any kind of document: stream the
 * body in, check fields and file, move the file into `area` under a
 * server-made name, then `record` it (a database insert). If anything fails,
 * nothing is left on disk or in the database.
 */
export async function acceptUpload<T, R>(
  request: Request,
  options: {
    area: StorageArea;
    maxFileBytes: number;
    fieldNames: readonly string[];
    repeated?: { names: readonly string[]; max: number } | undefined;
    parseFields: (fields: UploadFieldValues) => { data: T } | { errors: FieldErrors };
    /** Checks on the accepted file that need its bytes, before it is stored (throw an AppError to refuse). */
    check?: ((fields: T, file: { tmpPath: string; contentType: string }) => Promise<void>) | undefined;
  },
  record: (fields: T, file: AcceptedFile) => R,
): Promise<R> {
  const upload = await receiveUpload(request, {
    fileField: "file",
    maxFileBytes: options.maxFileBytes,
    fieldNames: options.fieldNames,
    repeated: options.repeated,
  });
  let storedPath: string | null = null;
  try {
    const { fields, contentType } = await validateUpload(upload, options.parseFields);
    const file = upload.file!;
    await options.check?.(fields, { tmpPath: file.tmpPath, contentType });
    storedPath = await commitIncoming(file.tmpPath, options.area);
    return record(fields, {
      filePath: storedPath,
      fileName: cleanFileName(file.clientName, EXTENSION_FOR_TYPE[contentType] ?? ""),
      fileSize: file.size,
      mimeType: contentType,
    });
  } catch (error) {
    if (upload.file) await removeQuietly(upload.file.tmpPath);
    if (storedPath) await removeStoredFile(storedPath);
    // A refusal after the fields were read (a file that cannot be stamped, a chosen investor
    // who cannot receive it): the form shows what was typed again, as after a field error.
    if (error instanceof AppError && !error.options.values) {
      throw new AppError(error.code, error.message, { ...error.options, values: upload.fields });
    }
    throw error;
  }
}

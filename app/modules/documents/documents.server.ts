import { asc, desc, eq } from "drizzle-orm";
import { getDb } from "../../../db/client";
import { documents } from "../../../db/schema";
import { recordAccess, type AccessAction, type RequestMeta } from "../access-log/access-log.server";
import type { LpUser } from "../auth/session.server";
import { AppError, type FieldErrors } from "../http/app-error";
import { checkFileType } from "../storage/file-type.server";
import { cleanFileName, EXTENSION_FOR_TYPE } from "../storage/file-name";
import { fileResponse } from "../storage/file-response.server";
import { commitIncoming, removeQuietly, removeStoredFile, storedFilePath } from "../storage/storage.server";
import { receiveUpload, type ReceivedUpload } from "../storage/upload.server";
import { MAX_UPLOAD_BYTES, uploadMessages } from "./constants";
import { DocumentId, LpUploadFields } from "./schema";

/** LP documents (SPEC.md §2, §3, §7): upload, list, delete, view and download. */

export type DocumentRow = typeof documents.$inferSelect;

/** SPEC.md §3 "LP document (read)": fileSize is a numeric string of bytes. */
export type LpDocument = {
  id: string;
  title: string;
  description: string | null;
  category: string;
  fileName: string;
  fileSize: string;
  createdAt: string;
};

export function toLpDocument(row: DocumentRow): LpDocument {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    fileName: row.fileName,
    fileSize: String(row.fileSize),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every LP document, newest first. */
export function listDocuments(): DocumentRow[] {
  return getDb().select().from(documents).orderBy(desc(documents.createdAt), asc(documents.title)).all();
}

/** One document by id; 404 for unknown or malformed ids. */
export function getDocument(id: string): DocumentRow {
  const parsed = DocumentId.safeParse(id);
  const row = parsed.success ? getDb().select().from(documents).where(eq(documents.id, parsed.data)).get() : undefined;
  if (!row) throw new AppError("not_found", uploadMessages.documentNotFound);
  return row;
}

/**
 * Check a received upload: the text fields, then the file (present, not
 * empty, an allowed MIME type whose content matches). Every problem is
 * reported at once, as field messages.
 */
export async function validateUpload<T>(
  upload: ReceivedUpload,
  parseFields: (fields: Record<string, string>) => { data: T } | { errors: FieldErrors },
): Promise<{ fields: T; contentType: string }> {
  const errors: FieldErrors = {};
  const parsed = parseFields(upload.fields);
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

export function zodFields<T>(schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }) {
  return (fields: Record<string, string>): { data: T } | { errors: FieldErrors } => {
    const result = schema.safeParse(fields);
    if (result.success) return { data: result.data };
    const errors: FieldErrors = {};
    for (const issue of result.error.issues) (errors[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
    return { errors };
  };
}

/**
 * POST /api/documents and the admin upload form: stream the file in, check
 * it, move it into storage under a server-made name and record it. On any
 * failure nothing is left on disk or in the database.
 */
export async function uploadDocument(admin: LpUser, request: Request): Promise<DocumentRow> {
  const upload = await receiveUpload(request, {
    fileField: "file",
    maxFileBytes: MAX_UPLOAD_BYTES,
    fieldNames: ["title", "description", "category"],
  });
  let storedPath: string | null = null;
  try {
    const { fields, contentType } = await validateUpload(upload, zodFields(LpUploadFields));
    const file = upload.file!;
    storedPath = await commitIncoming(file.tmpPath, "documents");
    return getDb()
      .insert(documents)
      .values({
        title: fields.title,
        description: fields.description,
        category: fields.category,
        fileName: cleanFileName(file.clientName, EXTENSION_FOR_TYPE[contentType] ?? ""),
        filePath: storedPath,
        fileSize: file.size,
        mimeType: contentType,
        uploadedBy: admin.id,
      })
      .returning()
      .get();
  } catch (error) {
    if (upload.file) await removeQuietly(upload.file.tmpPath);
    if (storedPath) await removeStoredFile(storedPath);
    throw error;
  }
}

/** DELETE /api/documents/{id} and the admin panel: the row goes, then the file (already gone is fine). */
export async function deleteDocument(_admin: LpUser, id: string): Promise<DocumentRow> {
  const row = getDocument(id);
  getDb().delete(documents).where(eq(documents.id, row.id)).run();
  await removeStoredFile(row.filePath);
  return row;
}

/**
 * GET /api/documents/{id}/view and /download for a signed-in portal user:
 * the file streamed from disk, and the access recorded.
 */
export async function serveDocument(
  user: LpUser,
  id: string,
  action: AccessAction,
  request: Request,
  meta: RequestMeta,
): Promise<Response> {
  const row = getDocument(id);
  const absolutePath = storedFilePath(row.filePath);
  if (!absolutePath) throw new AppError("not_found", uploadMessages.fileNotFound);
  const answer = await fileResponse(request, {
    absolutePath,
    id: row.id,
    contentType: row.mimeType,
    fileName: row.fileName,
    disposition: action === "view" ? "inline" : "attachment",
  });
  if (answer.countsAsAccess) {
    recordAccess({ action, documentKind: "lp", documentId: row.id, actor: { kind: "lp_user", id: user.id }, meta });
  }
  return answer.response;
}

import { asc, desc, eq } from "drizzle-orm";
import { getDb } from "../../../db/client";
import { documents } from "../../../db/schema";
import type { AccessAction, RequestMeta } from "../access-log/access-log.server";
import type { LpUser } from "../auth/session.server";
import { AppError } from "../http/app-error";
import { serveRecordedDocument } from "../storage/serve-document.server";
import { removeStoredFile } from "../storage/storage.server";
import { acceptUpload, zodFields } from "../storage/accept-upload.server";
import { MAX_UPLOAD_BYTES, uploadMessages } from "./constants";
import { DocumentId, LpUploadFields } from "./schema";
import { securityEvent } from "../logging/log.server";

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
 * POST /api/documents and the admin upload form: stream the file in, check
 * it, move it into storage under a server-made name and record it. On any
 * failure nothing is left on disk or in the database.
 */
export async function uploadDocument(admin: LpUser, request: Request): Promise<DocumentRow> {
  const row = await acceptUpload(
    request,
    {
      area: "documents",
      maxFileBytes: MAX_UPLOAD_BYTES,
      fieldNames: ["title", "description", "category"],
      parseFields: zodFields(LpUploadFields),
    },
    (fields, file) =>
      getDb()
        .insert(documents)
        .values({ ...fields, ...file, uploadedBy: admin.id })
        .returning()
        .get(),
  );
  securityEvent("document.uploaded", { actorId: admin.id, kind: "lp", documentId: row.id, category: row.category, bytes: row.fileSize, mimeType: row.mimeType });
  return row;
}

/** DELETE /api/documents/{id} and the admin panel: the row goes, then the file (already gone is fine). */
export async function deleteDocument(admin: LpUser, id: string): Promise<DocumentRow> {
  const row = getDocument(id);
  getDb().delete(documents).where(eq(documents.id, row.id)).run();
  await removeStoredFile(row.filePath);
  securityEvent("document.deleted", { actorId: admin.id, kind: "lp", documentId: row.id, title: row.title });
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
  return serveRecordedDocument(request, getDocument(id), {
    action,
    documentKind: "lp",
    actor: { kind: "lp_user", id: user.id },
    meta,
  });
}

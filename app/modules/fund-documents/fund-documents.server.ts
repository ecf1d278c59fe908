import { format } from "date-fns";
import { asc, desc, eq } from "drizzle-orm";
import { getDb } from "../../../db/client";
import { fundDocuments } from "../../../db/schema";
import type { AccessAction, Actor, RequestMeta } from "../access-log/access-log.server";
import { getSessionUser, type LpUser } from "../auth/session.server";
import { formatMegabytes, MAX_UPLOAD_BYTES, uploadMessages } from "../documents/constants";
import { DocumentId } from "../documents/schema";
import { FUND_IDS, type FundId } from "../fund-access/constants";
import { getFundAccess } from "../fund-access/cookie.server";
import type { FundAccessRequest } from "../fund-access/fund-access.server";
import { AppError } from "../http/app-error";
import { acceptUpload, zodFields } from "../storage/accept-upload.server";
import { serveRecordedDocument } from "../storage/serve-document.server";
import { removeStoredFile } from "../storage/storage.server";
import { FundUploadFields } from "./schema";
import { securityEvent } from "../logging/log.server";

/** Fund I and Fund II documents (SPEC.md §2, §3, §7), on the shared storage code. */

export type FundDocumentRow = typeof fundDocuments.$inferSelect;

/**
 * SPEC.md §3 "Fund document (read)": fileSize is ready-made text for the
 * public pages ("1.25 MB") and a byte string in the admin list.
 */
export type FundDocumentRead = {
  id: string;
  title: string;
  description: string | null;
  category: string;
  fileName: string;
  fileSize: string;
  createdAt: string;
  fundId: FundId;
};

export function toFundDocumentRead(row: FundDocumentRow, fileSize: "text" | "bytes"): FundDocumentRead {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    fileName: row.fileName,
    fileSize: fileSize === "text" ? formatMegabytes(row.fileSize) : String(row.fileSize),
    createdAt: row.createdAt.toISOString(),
    fundId: row.fundId,
  };
}

/** Public pages' date, e.g. "Jan 5, 2025" (SPEC.md §9). */
export function publicDate(date: Date): string {
  return format(date, "MMM d, yyyy");
}

/** One fund's documents, newest first. */
export function listFundDocuments(fundId: FundId): FundDocumentRow[] {
  return getDb()
    .select()
    .from(fundDocuments)
    .where(eq(fundDocuments.fundId, fundId))
    .orderBy(desc(fundDocuments.createdAt), asc(fundDocuments.title))
    .all();
}

export function getFundDocument(id: string): FundDocumentRow {
  const parsed = DocumentId.safeParse(id);
  const row = parsed.success ? getDb().select().from(fundDocuments).where(eq(fundDocuments.id, parsed.data)).get() : undefined;
  if (!row) throw new AppError("not_found", uploadMessages.documentNotFound);
  return row;
}

/** POST /api/fund-documents and the admin form: the LP upload rules, plus fundId. */
export async function uploadFundDocument(admin: LpUser, request: Request): Promise<FundDocumentRow> {
  const row = await acceptUpload(
    request,
    {
      area: "fund-documents",
      maxFileBytes: MAX_UPLOAD_BYTES,
      fieldNames: ["title", "description", "category", "fundId"],
      parseFields: zodFields(FundUploadFields),
    },
    (fields, file) =>
      getDb()
        .insert(fundDocuments)
        .values({ ...fields, ...file, uploadedBy: admin.id })
        .returning()
        .get(),
  );
  securityEvent("document.uploaded", { actorId: admin.id, kind: row.fundId, documentId: row.id, category: row.category, bytes: row.fileSize, mimeType: row.mimeType });
  return row;
}

export async function deleteFundDocument(admin: LpUser, id: string): Promise<FundDocumentRow> {
  const row = getFundDocument(id);
  getDb().delete(fundDocuments).where(eq(fundDocuments.id, row.id)).run();
  await removeStoredFile(row.filePath);
  securityEvent("document.deleted", { actorId: admin.id, kind: row.fundId, documentId: row.id, title: row.title });
  return row;
}

/** Who may read fund documents: an admin (every fund) or the holder of one fund's access. */
export type FundViewer = { kind: "admin"; user: LpUser } | { kind: "holder"; access: FundAccessRequest };

export function mayReadFund(viewer: FundViewer, fundId: FundId): boolean {
  return viewer.kind === "admin" || viewer.access.fundId === fundId;
}

/**
 * GET /api/fund-documents/view/{id} and /download/{id}. A holder asking for
 * another fund's document gets the same 404 as for an unknown id. The access
 * log records the access request (or the admin) it came through.
 */
export async function serveFundDocument(
  viewers: FundViewer[],
  id: string,
  action: AccessAction,
  request: Request,
  meta: RequestMeta,
): Promise<Response> {
  const row = getFundDocument(id);
  const viewer = viewers.find((v) => mayReadFund(v, row.fundId));
  if (!viewer) throw new AppError("not_found", uploadMessages.documentNotFound);
  const actor: Actor =
    viewer.kind === "admin" ? { kind: "lp_user", id: viewer.user.id } : { kind: "fund_access_user", id: viewer.access.id };
  return serveRecordedDocument(request, row, { action, documentKind: "fund", actor, meta });
}

/** Everyone the request speaks for: the signed-in admin, and the holder of each fund cookie still valid. */
export async function fundViewers(request: Request): Promise<FundViewer[]> {
  const viewers: FundViewer[] = [];
  const user = await getSessionUser(request);
  if (user?.isAdmin) viewers.push({ kind: "admin", user });
  for (const fundId of FUND_IDS) {
    const access = await getFundAccess(request, fundId);
    if (access) viewers.push({ kind: "holder", access });
  }
  return viewers;
}

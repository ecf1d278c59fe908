import { asc, desc, eq, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { getDb } from "../../../db/client";
import { documents as lpTable, fundDocuments as fundTable } from "../../../db/schema";
import { recordAccess, type AccessAction, type Actor, type DocumentKind, type RequestMeta } from "../access-log/access-log.server";
import { canUseInvestorPortal } from "../auth/guards.server";
import { getSessionUser, type LpUser } from "../auth/session.server";
import { publicDate } from "../dates/format";
import { FUND_IDS, type FundId } from "../fund-access/constants";
import { getFundAccess } from "../fund-access/cookie.server";
import type { FundAccessRequest } from "../fund-access/fund-access.server";
import { AppError } from "../http/app-error";
import { audit, type AuditTarget } from "../audit/audit.server";
import { acceptUpload, zodFields, type AcceptedFile } from "../storage/accept-upload.server";
import { fileResponse } from "../storage/file-response.server";
import { removeStoredFile, storedFilePath, type StorageArea } from "../storage/storage.server";
import { uploadMessages } from "~/content/validation";
import { MAX_UPLOAD_BYTES } from "./constants";
import { toDocumentRead, type DocumentRead, type DocumentView, type FileSizeAs, type FundDocumentRead } from "./read";
import { DocumentId, FundUploadFields, LpUploadFields } from "./schema";

/**
 * Every document the firm publishes (SPEC.md §2, §3, §7): the LP documents of
 * the investor portal and the Fund I / Fund II documents of the fund pages.
 * One implementation of upload, list, find, delete, view/download and the
 * read shape (`createDocumentStore`), made twice over the two tables of
 * SPEC.md §3; what differs between them is the store's configuration.
 * See docs/decisions/018-one-documents-module.md.
 */

/** Where a document is published: the investor portal, or one fund's page. */
export type DocumentScope = "lp" | FundId;

/** Who is asking: a signed-in portal user (an investor or an admin), or the holder of one fund's access. */
export type Viewer = { kind: "user"; user: LpUser } | { kind: "holder"; access: FundAccessRequest };

/**
 * Who may see what. An admin sees every scope, an approved investor the LP
 * documents, a fund access holder that fund's documents. A document its
 * reader may not see is answered like an unknown id (404), so nobody learns
 * which ids exist elsewhere.
 */
export function mayRead(viewer: Viewer, scope: DocumentScope): boolean {
  if (viewer.kind === "holder") return viewer.access.fundId === scope;
  return viewer.user.isAdmin || (scope === "lp" && canUseInvestorPortal(viewer.user));
}

/** The access log's name for whoever read a file. */
function actorOf(viewer: Viewer): Actor {
  return viewer.kind === "user"
    ? { kind: "lp_user", id: viewer.user.id, email: viewer.user.email }
    : { kind: "fund_access_user", id: viewer.access.id, email: viewer.access.email };
}

/** A document as the audit trail names it. */
function documentTarget(row: { id: string; title: string }): AuditTarget {
  return { type: "document", id: row.id, label: row.title };
}

/**
 * Everyone a request speaks for on the fund pages and routes: the signed-in
 * admin (an investor's session opens no fund), and the holder of each fund
 * cookie still valid.
 */
export async function fundViewers(request: Request): Promise<Viewer[]> {
  const viewers: Viewer[] = [];
  const user = await getSessionUser(request);
  if (user?.isAdmin) viewers.push({ kind: "user", user });
  for (const fundId of FUND_IDS) {
    const access = await getFundAccess(request, fundId);
    if (access) viewers.push({ kind: "holder", access });
  }
  return viewers;
}

type DocumentTable = typeof lpTable | typeof fundTable;

/** What an upload form gives a row: every column but the file's, the uploader and those the database fills in. */
type UploadValues<T extends DocumentTable> = Omit<T["$inferInsert"], keyof AcceptedFile | "uploadedBy" | "id" | "createdAt">;

type StoreConfig<T extends DocumentTable, Scope extends DocumentScope, Read extends DocumentRead> = {
  /** The access log's name for this kind of document. */
  kind: DocumentKind;
  table: T;
  /** The folder of STORAGE_DIR its files go to. */
  area: StorageArea;
  /** The upload form's text fields (the file is always `file`) and their rules. */
  upload: { fieldNames: readonly string[]; schema: z.ZodType<UploadValues<T>> };
  /** Where a row is published. */
  scopeOf: (row: T["$inferSelect"]) => Scope;
  /** The condition that selects one scope's rows (undefined: every row of the table). */
  inScope: (scope: Scope) => SQL | undefined;
  /** The read shape of SPEC.md §3. */
  read: (row: T["$inferSelect"], fileSize: FileSizeAs) => Read;
};

/**
 * One kind of document over its table. The queries are written once over
 * the columns both tables share; each result is typed as this store's row.
 */
function createDocumentStore<T extends DocumentTable, Scope extends DocumentScope, Read extends DocumentRead>(
  config: StoreConfig<T, Scope, Read>,
) {
  type Row = T["$inferSelect"];
  const table: DocumentTable = config.table;

  /** One document by id; 404 for unknown or malformed ids. */
  function find(id: string): Row {
    const parsed = DocumentId.safeParse(id);
    const row = parsed.success ? getDb().select().from(table).where(eq(table.id, parsed.data)).get() : undefined;
    if (!row) throw new AppError("not_found", uploadMessages.documentNotFound);
    return row as Row;
  }

  /** A scope's documents (every one of this kind without a scope), newest first. */
  function list(scope?: Scope): Row[] {
    return getDb()
      .select()
      .from(table)
      .where(scope === undefined ? undefined : config.inScope(scope))
      .orderBy(desc(table.createdAt), asc(table.title))
      .all() as Row[];
  }

  return {
    kind: config.kind,
    find,
    list,
    read: config.read,

    /** A scope's documents as its page shows them: the read shape plus the date people read ('Jan 5, 2025', UTC). */
    listForPage(scope: Scope, fileSize: FileSizeAs): DocumentView<Read>[] {
      return list(scope).map((row) => ({ ...config.read(row, fileSize), createdOn: publicDate(row.createdAt) }));
    },

    /**
     * The JSON upload route and the admin form: stream the file in, check it,
     * move it into storage under a server-made name and record it. On any
     * failure nothing is left on disk or in the database.
     */
    async upload(admin: LpUser, request: Request): Promise<Row> {
      const row = await acceptUpload(
        request,
        {
          area: config.area,
          maxFileBytes: MAX_UPLOAD_BYTES,
          fieldNames: config.upload.fieldNames,
          parseFields: zodFields(config.upload.schema),
        },
        (fields, file) =>
          getDb().transaction((tx) => {
            const inserted = tx
              .insert(table)
              .values({ ...fields, ...file, uploadedBy: admin.id } as DocumentTable["$inferInsert"])
              .returning()
              .get() as Row;
            audit(tx, "document.uploaded", {
              actor: { id: admin.id, email: admin.email },
              target: documentTarget(inserted),
              details: {
                actorId: admin.id,
                kind: config.scopeOf(inserted),
                documentId: inserted.id,
                category: inserted.category,
                bytes: inserted.fileSize,
                mimeType: inserted.mimeType,
              },
            });
            return inserted;
          }),
      );
      return row;
    },

    /** The JSON delete route and the admin pages: the row goes, then the file (already gone is fine). */
    async delete(admin: LpUser, id: string): Promise<Row> {
      const row = find(id);
      getDb().transaction((tx) => {
        tx.delete(table).where(eq(table.id, row.id)).run();
        audit(tx, "document.deleted", {
          actor: { id: admin.id, email: admin.email },
          target: documentTarget(row),
          details: { actorId: admin.id, kind: config.scopeOf(row), documentId: row.id, title: row.title },
        });
      });
      await removeStoredFile(row.filePath);
      return row;
    },

    /**
     * View (inline) or download (attachment) for the first of `viewers` who
     * may read the document: streamed from disk with Range and conditional
     * requests, and recorded in the access log when it starts the file. The
     * access is recorded under that viewer.
     */
    async serve(
      viewers: readonly Viewer[],
      id: string,
      action: AccessAction,
      request: Request,
      meta: RequestMeta,
    ): Promise<Response> {
      const row = find(id);
      const viewer = viewers.find((v) => mayRead(v, config.scopeOf(row)));
      if (!viewer) throw new AppError("not_found", uploadMessages.documentNotFound);
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
        recordAccess({ action, documentKind: config.kind, document: row, actor: actorOf(viewer), meta });
      }
      return answer.response;
    },
  };
}

/** The LP documents of the investor portal: one scope, seven categories, the LP read shape. */
export const lpDocuments = createDocumentStore<typeof lpTable, "lp", DocumentRead>({
  kind: "lp",
  table: lpTable,
  area: "documents",
  upload: { fieldNames: ["title", "description", "category"], schema: LpUploadFields },
  scopeOf: () => "lp",
  inScope: () => undefined,
  read: (row, fileSize) => toDocumentRead(row, fileSize),
});

/** The Fund I and Fund II documents: a scope per fund, five categories, the read shape with fundId. */
export const fundDocuments = createDocumentStore<typeof fundTable, FundId, FundDocumentRead>({
  kind: "fund",
  table: fundTable,
  area: "fund-documents",
  upload: { fieldNames: ["title", "description", "category", "fundId"], schema: FundUploadFields },
  scopeOf: (row) => row.fundId,
  inScope: (fundId) => eq(fundTable.fundId, fundId),
  read: (row, fileSize) => ({ ...toDocumentRead(row, fileSize), fundId: row.fundId }),
});

export type DocumentStore = typeof lpDocuments | typeof fundDocuments;

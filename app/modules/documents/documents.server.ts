import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { getDb, type Db } from "~/modules/db/connection.server";
import { documentRecipientEntities, documentRecipients, documents as lpTable, entities, fundDocuments as fundTable, lpUsers } from "../../../db/schema";
import { recordAccess, type AccessAction, type Actor, type DocumentKind, type RequestMeta } from "../access-log/access-log.server";
import { canUseInvestorPortal } from "../auth/guards.server";
import { getSessionUser, type LpUser } from "../auth/session.server";
import { publicDate } from "../dates/format";
import { FUND_IDS, type FundId } from "../fund-access/constants";
import { getFundAccess } from "../fund-access/cookie.server";
import type { FundAccessRequest } from "../fund-access/fund-access.server";
import { AppError, isAppError, type FieldErrors } from "../http/app-error";
import { assertStampable } from "../watermark/watermark.server";
import { now } from "../config/clock.server";
import { queueDocumentReminders, queueNewDocumentMails } from "../document-mail/document-mail.server";
import { dropPendingDocumentMail, kickMailer } from "../mail/mail.server";
import { addressees } from "./addressees.server";
import { unopenedAudience } from "./read-status.server";
import { stampedFileResponse } from "./stamped.server";
import { audit, type AuditTarget } from "../audit/audit.server";
import { acceptUpload, zodFields, type AcceptedFile } from "../storage/accept-upload.server";
import { fileResponse } from "../storage/file-response.server";
import { removeStoredFile, storedFilePath, type StorageArea } from "../storage/storage.server";
import { uploadMessages } from "~/content/validation";
import { recipientEntityMessages } from "~/content/documents";
import { MAX_RECIPIENTS, MAX_UPLOAD_BYTES, type Audience } from "./constants";
import { toDocumentRead, type DocumentRead, type DocumentView, type FileSizeAs, type FundDocumentRead, type LpDocumentRead } from "./read";
import { DocumentId, FundUploadFields, LpUploadFields, type AudienceFields } from "./schema";

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

/**
 * Whether an LP document is addressed to this investor: every approved
 * investor for audience 'all'; for 'selected', its chosen investors and every
 * current member of its chosen entities (`addressees`, decision 025's one rule
 * extended by issue 24 §2). Admins read every document; checked on every
 * view and download, against the database at the time of the request.
 */
function isAddressedTo(row: LpRow, userId: string): boolean {
  if (row.audience === "all") return true;
  return !!getDb().get(sql`select 1 from (${addressees("user", { documentId: row.id, userId })}) limit 1`);
}

/** The LP documents an investor may list: audience 'all', and those addressed to them (directly or through an entity). */
function addressedToUser(userId: string): SQL {
  return or(eq(lpTable.audience, "all"), sql`${lpTable.id} in (${addressees("document", { userId })})`)!;
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
type LpRow = typeof lpTable.$inferSelect;
type DbOrTx = Pick<Db, "select" | "insert" | "update" | "delete">;

/** What an upload form gives a row: every column but the file's, the uploader and those the database fills in. */
type UploadValues<T extends DocumentTable> = Omit<T["$inferInsert"], keyof AcceptedFile | "uploadedBy" | "id" | "createdAt">;

/** Insert a document row and its audit row (document.uploaded), inside the caller's transaction. */
function insertDocument<T extends DocumentTable>(
  tx: DbOrTx,
  table: T,
  admin: LpUser,
  values: UploadValues<T>,
  file: AcceptedFile,
  kind: (row: T["$inferSelect"]) => DocumentScope,
  details: Record<string, unknown> = {},
): T["$inferSelect"] {
  const inserted = tx
    .insert(table as DocumentTable)
    .values({ ...values, ...file, uploadedBy: admin.id } as DocumentTable["$inferInsert"])
    .returning()
    .get() as T["$inferSelect"];
  audit(tx, "document.uploaded", {
    actor: { id: admin.id, email: admin.email },
    target: documentTarget(inserted),
    details: {
      actorId: admin.id,
      kind: kind(inserted),
      documentId: inserted.id,
      category: inserted.category,
      bytes: inserted.fileSize,
      mimeType: inserted.mimeType,
      ...details,
    },
  });
  return inserted;
}

type StoreConfig<T extends DocumentTable, Scope extends DocumentScope, Read extends DocumentRead, F> = {
  /** The access log's name for this kind of document. */
  kind: DocumentKind;
  table: T;
  /** The folder of STORAGE_DIR its files go to. */
  area: StorageArea;
  /** The upload form's text fields (the file is always `file`), repeated ones, and their rules. */
  upload: {
    fieldNames: readonly string[];
    repeated?: { names: readonly string[]; max: number };
    schema: z.ZodType<F>;
    /** Checks on the received file that need its bytes (e.g. that a PDF to be stamped can be). */
    check?: (fields: F, file: { tmpPath: string; contentType: string }) => Promise<void>;
    /** Record the accepted upload inside the transaction (the row, its audit row and whatever goes with it). */
    insert: (tx: DbOrTx, admin: LpUser, fields: F, file: AcceptedFile) => T["$inferSelect"];
  };
  /** Where a row is published. */
  scopeOf: (row: T["$inferSelect"]) => Scope;
  /** The condition that selects one scope's rows (undefined: every row of the table). */
  inScope: (scope: Scope) => SQL | undefined;
  /** Whether an investor's views and downloads of this row are watermarked copies (admins always get the stored file). */
  stamped?: (row: T["$inferSelect"]) => boolean;
  /** Within its scope, whether a row is addressed to this (non-admin) user, and the condition listing those rows. */
  addressed?: { row: (row: T["$inferSelect"], userId: string) => boolean; list: (userId: string) => SQL };
  /** The read shape of SPEC.md §3. */
  read: (row: T["$inferSelect"], fileSize: FileSizeAs) => Read;
};

/**
 * One kind of document over its table. The queries are written once over
 * the columns both tables share; each result is typed as this store's row.
 */
function createDocumentStore<T extends DocumentTable, Scope extends DocumentScope, Read extends DocumentRead, F>(
  config: StoreConfig<T, Scope, Read, F>,
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

  /**
   * A scope's documents (every one of this kind without a scope), newest
   * first; with `reader`, only those addressed to that user (an admin reads all).
   */
  function list(scope?: Scope, reader?: LpUser): Row[] {
    const narrowed = reader && !reader.isAdmin && config.addressed ? config.addressed.list(reader.id) : undefined;
    return getDb()
      .select()
      .from(table)
      .where(and(scope === undefined ? undefined : config.inScope(scope), narrowed))
      .orderBy(desc(table.createdAt), asc(table.title))
      .all() as Row[];
  }

  /** Whether `viewer` may read this row: its scope, then (for investors) its audience. */
  function mayReadRow(viewer: Viewer, row: Row): boolean {
    if (!mayRead(viewer, config.scopeOf(row))) return false;
    if (viewer.kind !== "user" || viewer.user.isAdmin || !config.addressed) return true;
    return config.addressed.row(row, viewer.user.id);
  }

  return {
    kind: config.kind,
    find,
    list,
    read: config.read,

    mayReadRow,

    /** A scope's documents as its page shows them (only those addressed to `reader`): the read shape plus the date people read ('Jan 5, 2025', UTC). */
    listForPage(scope: Scope, fileSize: FileSizeAs, reader?: LpUser): DocumentView<Read>[] {
      return list(scope, reader).map((row) => ({ ...config.read(row, fileSize), createdOn: publicDate(row.createdAt) }));
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
          repeated: config.upload.repeated,
          parseFields: zodFields(config.upload.schema),
          check: config.upload.check,
        },
        (fields, file) => getDb().transaction((tx) => config.upload.insert(tx, admin, fields, file)),
      );
      // New-document e-mails queued with the row go out now rather than at the worker's next round.
      kickMailer();
      return row;
    },

    /** The JSON delete route and the admin pages: the row goes, then the file (already gone is fine). */
    async delete(admin: LpUser, id: string): Promise<Row> {
      const row = find(id);
      getDb().transaction((tx) => {
        tx.delete(table).where(eq(table.id, row.id)).run();
        // Its notices and reminders not yet sent would name a document that is gone.
        dropPendingDocumentMail(tx, row.id);
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
      const viewer = viewers.find((v) => mayReadRow(v, row));
      if (!viewer) throw new AppError("not_found", uploadMessages.documentNotFound);
      const absolutePath = storedFilePath(row.filePath);
      if (!absolutePath) throw new AppError("not_found", uploadMessages.fileNotFound);
      if (viewer.kind === "user" && !viewer.user.isAdmin && config.stamped?.(row)) {
        const file = { absolutePath, contentType: row.mimeType, fileName: row.fileName, disposition: action === "view" ? "inline" : "attachment" } as const;
        const response = await stampedFileResponse(request, file, viewer.user);
        if (request.method !== "HEAD") recordAccess({ action, documentKind: config.kind, document: row, actor: actorOf(viewer), meta });
        return response;
      }
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

/**
 * A document to be watermarked must be a PDF that qpdf can stamp (not
 * encrypted, not broken): else 400 with the reason, under `field`.
 */
async function assertWatermarkable(absolutePath: string, mimeType: string, field = "file") {
  if (mimeType !== "application/pdf") {
    throw new AppError("bad_request", uploadMessages.watermarkPdfOnly, { fields: { watermark: [uploadMessages.watermarkPdfOnly] } });
  }
  try {
    await assertStampable(absolutePath);
  } catch (error) {
    if (isAppError(error) && field !== "file") throw new AppError(error.code, error.message, { fields: { [field]: [error.message] } });
    throw error;
  }
}

/** What publishing an LP document takes besides its file: the upload form's fields with the audience (chosen entities: none if left out). */
export type LpDocumentValues = Omit<LpUploadFields, "recipientEntityIds"> & { recipientEntityIds?: readonly string[] | undefined };

/** A 'selected' document's chosen investors and entities. */
export type Addressed = { recipientIds: readonly string[]; recipientEntityIds: readonly string[] };

/**
 * Check whom a document is being addressed to, in one query per kind: chosen
 * investors who may not receive documents (unknown ids, not approved,
 * admins) and chosen entities that do not exist → 400 naming how many under
 * each field (never which exist); audience 'selected' with nobody chosen →
 * 400 under recipientIds. `adding` are the ids to check (on a change, those
 * not already chosen); `result` is the whole audience it leaves.
 */
function checkAddressed(db: Pick<Db, "select">, audience: Audience, adding: Addressed, result: Addressed) {
  const fields: FieldErrors = {};
  if (adding.recipientIds.length) {
    const found = db
      .select({ id: lpUsers.id })
      .from(lpUsers)
      .where(and(inArray(lpUsers.id, [...adding.recipientIds]), eq(lpUsers.status, "approved"), eq(lpUsers.isAdmin, false)))
      .all();
    const missing = adding.recipientIds.length - found.length;
    if (missing > 0) fields.recipientIds = [uploadMessages.recipientsInvalid(missing)];
  }
  if (adding.recipientEntityIds.length) {
    const found = db
      .select({ id: entities.id })
      .from(entities)
      .where(inArray(entities.id, [...adding.recipientEntityIds]))
      .all();
    const missing = adding.recipientEntityIds.length - found.length;
    if (missing > 0) fields.recipientEntityIds = [recipientEntityMessages.invalid(missing)];
  }
  if (audience === "selected" && result.recipientIds.length + result.recipientEntityIds.length === 0) {
    fields.recipientIds = [uploadMessages.recipientsRequired];
  }
  const first = Object.values(fields)[0]?.[0];
  if (first) throw new AppError("bad_request", first, { fields });
}

/** Replace a document's chosen investors and entities (none for audience 'all'). */
function writeAddressed(tx: DbOrTx, documentId: string, addressed: Addressed) {
  tx.delete(documentRecipients).where(eq(documentRecipients.documentId, documentId)).run();
  tx.delete(documentRecipientEntities).where(eq(documentRecipientEntities.documentId, documentId)).run();
  for (let i = 0; i < addressed.recipientIds.length; i += 500) {
    const chunk = addressed.recipientIds.slice(i, i + 500).map((userId) => ({ documentId, userId }));
    tx.insert(documentRecipients).values(chunk).run();
  }
  for (let i = 0; i < addressed.recipientEntityIds.length; i += 500) {
    const chunk = addressed.recipientEntityIds.slice(i, i + 500).map((entityId) => ({ documentId, entityId }));
    tx.insert(documentRecipientEntities).values(chunk).run();
  }
}

/**
 * Publish one LP document inside the caller's transaction: check the chosen
 * investors and entities, insert the row, its recipients and the audit row,
 * and queue the new-document mails. Shared by the upload (JSON and form) and
 * the bulk per-investor upload. Entities left out: none.
 */
export function publishLpDocument(tx: DbOrTx, admin: LpUser, values: LpDocumentValues, file: AcceptedFile): LpRow {
  const { recipientIds, recipientEntityIds = [], ...columns } = values;
  const addressed = { recipientIds, recipientEntityIds };
  checkAddressed(tx, columns.audience, addressed, addressed);
  const row = insertDocument(tx, lpTable, admin, columns, file, () => "lp", {
    audience: columns.audience,
    recipients: recipientIds.length,
    recipientEntities: recipientEntityIds.length,
    watermark: columns.watermark,
  });
  writeAddressed(tx, row.id, addressed);
  queueNewDocumentMails(tx, row);
  return row;
}

/** Each key's values, in the order found, for every id of `ids` (an empty list for those with none). */
function groupBy<R>(ids: readonly string[], load: (chunk: string[]) => R[], key: (row: R) => [string, string]): Map<string, string[]> {
  const byDocument = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (let i = 0; i < ids.length; i += 500) {
    for (const row of load(ids.slice(i, i + 500))) {
      const [documentId, value] = key(row);
      byDocument.get(documentId)!.push(value);
    }
  }
  return byDocument;
}

/** The chosen investors of each 'selected' document among `rows` (admins' read shape). */
export function recipientIdsOf(rows: readonly LpRow[]): Map<string, string[]> {
  return groupBy(
    rows.filter((r) => r.audience === "selected").map((r) => r.id),
    (chunk) => getDb().select().from(documentRecipients).where(inArray(documentRecipients.documentId, chunk)).all(),
    (r) => [r.documentId, r.userId],
  );
}

/** The chosen entities of each 'selected' document among `rows` (admins' read shape). */
export function recipientEntityIdsOf(rows: readonly LpRow[]): Map<string, string[]> {
  return groupBy(
    rows.filter((r) => r.audience === "selected").map((r) => r.id),
    (chunk) => getDb().select().from(documentRecipientEntities).where(inArray(documentRecipientEntities.documentId, chunk)).all(),
    (r) => [r.documentId, r.entityId],
  );
}

/** LP documents in the JSON read shape; an admin also gets each document's recipientIds and recipientEntityIds. */
export function lpDocumentReads(rows: readonly LpRow[], reader: LpUser): LpDocumentRead[] {
  const recipients = reader.isAdmin ? recipientIdsOf(rows) : null;
  const recipientEntities = reader.isAdmin ? recipientEntityIdsOf(rows) : null;
  return rows.map((row) => ({
    ...lpDocuments.read(row, "bytes"),
    ...(recipients ? { recipientIds: recipients.get(row.id) ?? [] } : {}),
    ...(recipientEntities ? { recipientEntityIds: recipientEntities.get(row.id) ?? [] } : {}),
  }));
}

/**
 * Change an LP document's audience and watermark switch after upload (the
 * admin page and PATCH /api/documents/{id}). Investors who lose it get 404
 * from their next request on; a download already streaming finishes.
 * `recipientEntityIds` left out keeps the chosen entities (the admin page's
 * form chooses investors only); audience 'all' drops investors and entities.
 */
export async function setLpDocumentAudience(admin: LpUser, id: string, values: AudienceFields): Promise<LpRow> {
  const row = lpDocuments.find(id);
  if (values.watermark && !row.watermark) {
    const absolutePath = storedFilePath(row.filePath);
    if (!absolutePath) throw new AppError("not_found", uploadMessages.fileNotFound);
    await assertWatermarkable(absolutePath, row.mimeType, "watermark");
  }
  const updated = getDb().transaction((tx) => {
    // Only investors being added must be able to receive it: one already chosen who has since
    // been suspended keeps their place (and gets the document back if approved again).
    const current = new Set(recipientIdsOf([row]).get(row.id) ?? []);
    const currentEntities = recipientEntityIdsOf([row]).get(row.id) ?? [];
    const addressed: Addressed = {
      recipientIds: values.recipientIds,
      recipientEntityIds: values.audience === "all" ? [] : (values.recipientEntityIds ?? currentEntities),
    };
    checkAddressed(
      tx,
      values.audience,
      {
        recipientIds: addressed.recipientIds.filter((id) => !current.has(id)),
        recipientEntityIds: addressed.recipientEntityIds.filter((id) => !currentEntities.includes(id)),
      },
      addressed,
    );
    const changed = tx
      .update(lpTable)
      .set({ audience: values.audience, watermark: values.watermark })
      .where(eq(lpTable.id, row.id))
      .returning()
      .get();
    writeAddressed(tx, row.id, addressed);
    // Mails not yet sent follow the new audience: those waiting are dropped, and whoever it now
    // reaches and has not been told yet is (a publish to the wrong investors is recalled this way).
    const { alreadySentTo } = dropPendingDocumentMail(tx, row.id);
    queueNewDocumentMails(tx, changed, { except: alreadySentTo });
    audit(tx, "document.audience_changed", {
      actor: { id: admin.id, email: admin.email },
      target: documentTarget(row),
      details: {
        documentId: row.id,
        audience: values.audience,
        recipients: addressed.recipientIds.length,
        recipientEntities: addressed.recipientEntityIds.length,
        watermark: values.watermark,
        was: { audience: row.audience, watermark: row.watermark },
      },
    });
    return changed;
  });
  kickMailer();
  return updated;
}

/**
 * A reminder mail to each investor of the audience who has not opened the
 * document yet; at most one per document and investor a day (the others are
 * counted as skipped), with one audit row.
 */
export function remindUnopenedAudience(admin: LpUser, id: string): { queued: number; skipped: number } {
  const row = lpDocuments.find(id);
  const result = getDb().transaction((tx) => queueDocumentReminders(tx, admin, row, unopenedAudience(row), now()));
  kickMailer();
  return result;
}

/** The LP documents of the investor portal: one scope, seven categories, an audience per document, the LP read shape. */
export const lpDocuments = createDocumentStore<typeof lpTable, "lp", LpDocumentRead, LpUploadFields>({
  kind: "lp",
  table: lpTable,
  area: "documents",
  upload: {
    fieldNames: ["title", "description", "category", "audience", "watermark"],
    repeated: { names: ["recipientIds", "recipientEntityIds"], max: MAX_RECIPIENTS },
    schema: LpUploadFields,
    check: async (fields, file) => {
      if (fields.watermark) await assertWatermarkable(file.tmpPath, file.contentType);
    },
    insert: publishLpDocument,
  },
  scopeOf: () => "lp",
  inScope: () => undefined,
  addressed: { row: (row, userId) => isAddressedTo(row, userId), list: addressedToUser },
  stamped: (row) => row.watermark,
  read: (row, fileSize) => ({ ...toDocumentRead(row, fileSize), audience: row.audience, watermark: row.watermark }),
});

/** The Fund I and Fund II documents: a scope per fund, five categories, the read shape with fundId. */
export const fundDocuments = createDocumentStore<typeof fundTable, FundId, FundDocumentRead, FundUploadFields>({
  kind: "fund",
  table: fundTable,
  area: "fund-documents",
  upload: {
    fieldNames: ["title", "description", "category", "fundId"],
    schema: FundUploadFields,
    insert: (tx, admin, fields, file) => insertDocument(tx, fundTable, admin, fields, file, (row) => row.fundId),
  },
  scopeOf: (row) => row.fundId,
  inScope: (fundId) => eq(fundTable.fundId, fundId),
  read: (row, fileSize) => ({ ...toDocumentRead(row, fileSize), fundId: row.fundId }),
});

export type DocumentStore = typeof lpDocuments | typeof fundDocuments;

import type { PublishedDocument } from "~/components/documents/published-documents";
import type { EmailListData, EmailListRowView } from "~/components/email-lists/email-list-table";
import { EMAIL_LIST_PAGE_SIZE, type ListViews } from "~/components/email-lists/params";
import type { FundAccessRequestRef } from "~/components/fund-admin/fund-access-actions";
import type { AdminFundAccessRequest, FundAccessRequestsPage } from "~/components/fund-admin/fund-access-list";
import type { AdminListUser, InvestorRow } from "~/components/portal/user-list";
import { lastPageOf, LIST_PAGE_SIZE } from "~/components/ui/pager";
import { audienceCopy } from "~/content/documents";
import { summarizeAccess } from "~/modules/access-log/access-log.server";
import { readCounts, type ReadCounts } from "~/modules/documents/read-status.server";
import { adminDate, adminDateTime } from "~/modules/dates/format";
import { formatMegabytes } from "~/modules/documents/constants";
import type { DocumentStore } from "~/modules/documents/documents.server";
import { readListPage } from "~/modules/email-lists/email-lists.server";
import { LISTS, MISSING_COMPANY, type ListKey, type ListRow } from "~/modules/email-lists/lists";
import {
  findFundAccessRequest,
  listFundAccessRequestsPage,
  toFundAccessRead,
  type FundAccessRequest,
} from "~/modules/fund-access/fund-access.server";
import { listFunds } from "~/modules/funds/funds.server";
import type { FundAccessMode } from "~/modules/funds/constants";
import { logError } from "~/modules/logging/log.server";
import { approvalDates, countInvestors, listInvestorTable, type InvestorView } from "~/modules/lp-users/investor-table.server";
import { findUserById, type LpUser } from "~/modules/lp-users/lp-users.server";
import type { UserStatus } from "~/modules/lp-users/schema";

/**
 * The admin pages' reads, each on its own: a failure shows in its own list
 * only (logged), never as an error page.
 */
function guarded<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch (error) {
    logError(error);
    return fallback;
  }
}

/**
 * One page of a list, newest first: `read` answers a window and the list's
 * total. A page past the end shows the last one.
 */
function readPage<T>(page: number, read: (range: { offset: number; limit: number }) => { rows: T[]; total: number }, pageSize = LIST_PAGE_SIZE) {
  const windowOf = (p: number) => ({ offset: (p - 1) * pageSize, limit: pageSize });
  let result = read(windowOf(page));
  const lastPage = lastPageOf(result.total, pageSize);
  if (page > lastPage) {
    page = lastPage;
    result = read(windowOf(page));
  }
  return { page, ...result };
}

/** An investor as the admin lists show them (SPEC.md §9: 'MMM dd, yyyy'). */
export function toAdminListUser(user: LpUser): AdminListUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    company: user.company,
    referenceCode: user.referenceCode,
    requestedOn: adminDate(user.createdAt),
  };
}

export type InvestorTableData = {
  rows: InvestorRow[];
  /** The page shown (a page past the end shows the last one), and how many rows the view has. */
  page: number;
  total: number;
  /** Each status's count (of those matching the search): the tabs' figures. */
  counts: Record<UserStatus, number> | null;
  failed: boolean;
};

/**
 * One page of the investors table (`?status=…&sort=…&dir=…&page=N&q=…`):
 * the tabs' counts (one index range each), the view's window, and the
 * approval dates of the approved investors in it.
 */
export function readInvestorTable(view: InvestorView, page: number): InvestorTableData {
  return guarded<InvestorTableData>(
    () => {
      const counts = countInvestors(view.query);
      const total = view.status === "all" ? counts.pending + counts.approved + counts.rejected : counts[view.status];
      const shown = Math.min(page, lastPageOf(total));
      const users = listInvestorTable(view, { offset: (shown - 1) * LIST_PAGE_SIZE, limit: LIST_PAGE_SIZE });
      const approved = approvalDates(users.filter((user) => user.status === "approved").map((user) => user.id));
      const rows = users.map((user): InvestorRow => {
        const approvedAt = approved.get(user.id);
        return { ...toAdminListUser(user), status: user.status, approvedOn: approvedAt ? adminDate(approvedAt) : null };
      });
      return { rows, page: shown, total, counts, failed: false };
    },
    { rows: [], page: 1, total: 0, counts: null, failed: true },
  );
}

/** The user of a status confirm step, by id: null unless it is an investor still in `status`'s list. */
export function readConfirmUser(userId: string, status: UserStatus): { id: string; name: string } | null {
  if (userId.length > 100) return null;
  return guarded(() => {
    const user = findUserById(userId);
    return user && !user.isAdmin && user.status === status ? { id: user.id, name: user.name } : null;
  }, null);
}

export type DocumentsData = { documents: PublishedDocument[]; failed: boolean };

/** Published documents of a store (all of it, or one fund's), with how often each was opened. */
export function readPublished(store: DocumentStore, rows: () => Parameters<DocumentStore["read"]>[0][]): DocumentsData {
  return guarded<DocumentsData>(
    () => {
      const access = summarizeAccess(store.kind);
      const reads = store.kind === "lp" ? readCounts() : null;
      const documents = rows().map((row): PublishedDocument => {
        const seen = access.get(row.id);
        return {
          id: row.id,
          title: row.title,
          description: row.description,
          category: row.category,
          fileName: row.fileName,
          size: formatMegabytes(row.fileSize),
          uploadedOn: adminDate(row.createdAt),
          views: seen?.views ?? 0,
          downloads: seen?.downloads ?? 0,
          lastAccess: seen?.lastAccessAt ? adminDate(seen.lastAccessAt) : null,
          ...(reads && "audience" in row ? { audience: audienceSummary(row, reads.get(row.id)) } : {}),
        };
      });
      return { documents, failed: false };
    },
    { documents: [], failed: true },
  );
}

/** An LP document's audience line on the documents page: who, stamped or not, 'Opened by N of M'. */
function audienceSummary(row: { audience: "all" | "selected"; watermark: boolean }, counts: ReadCounts | undefined) {
  const of = counts?.audience ?? 0;
  return {
    kind: row.audience,
    summary: row.audience === "all" ? audienceCopy.summaryAll : audienceCopy.summarySelected(of),
    watermarked: row.watermark,
    openedBy: audienceCopy.openedBy(counts?.opened ?? 0, of),
    opened: counts?.opened ?? 0,
    of,
  };
}

/** A fund access request as the admin list shows it ('MMM dd, yyyy HH:mm', UTC), with its fund's access mode. */
export function toAdminFundAccessRequest(row: FundAccessRequest, fundAccess: FundAccessMode): AdminFundAccessRequest {
  const read = toFundAccessRead(row);
  return {
    id: read.id,
    name: read.name,
    email: read.email,
    company: row.company,
    fundId: read.fundId,
    fundAccess,
    accreditedConfirmation: read.accreditedConfirmation,
    createdAt: read.createdAt,
    requestedAt: adminDateTime(row.createdAt),
    revoked: row.revokedAt !== null,
    revokedAt: row.revokedAt ? adminDateTime(row.revokedAt) : null,
  };
}

/** A page of the fund access requests (`?requests.page=N`), newest first. */
export function readFundAccessRequests(page: number): FundAccessRequestsPage {
  return guarded<FundAccessRequestsPage>(
    () => {
      const result = readPage(page, (range) => {
        const { requests, total } = listFundAccessRequestsPage(range);
        return { rows: requests, total };
      });
      const access = new Map(listFunds().map((fund) => [fund.slug, fund.access]));
      const requests = result.rows.map((row) => {
        const fundAccess = access.get(row.fundId);
        if (!fundAccess) throw new Error(`the funds table has no row for ${row.fundId}`);
        return toAdminFundAccessRequest(row, fundAccess);
      });
      return { requests, page: result.page, total: result.total, failed: false };
    },
    { requests: [], page: 1, total: 0, failed: true },
  );
}

/** The request of the revoke confirm step, by id; null when it is gone. */
export function readRevokeRequest(requestId: string): FundAccessRequestRef | null {
  return guarded(() => {
    const row = findFundAccessRequest(requestId);
    return row ? { id: row.id, name: row.name, fundId: row.fundId, revoked: row.revokedAt !== null } : null;
  }, null);
}

/** One e-mail table row (SPEC.md §2): a missing company reads 'N/A', dates 'MMM dd, yyyy' (UTC). */
function toEmailListRow(list: ListKey, row: ListRow): EmailListRowView {
  const columns = LISTS[list].columns;
  return {
    ...(columns.includes("company") ? { company: row.company || MISSING_COMPANY } : {}),
    ...(columns.includes("name") ? { name: row.name ?? "" } : {}),
    email: row.email,
    date: adminDate(row.date),
    dateTime: row.date,
  };
}

/** One e-mail table: at most a page of rows, in the URL's order. */
export function readEmailList(list: ListKey, views: ListViews): EmailListData {
  const { sort, filter = {} } = views[list];
  return guarded<EmailListData>(
    () => {
      const result = readPage(
        views[list].page,
        (range) => {
          const { rows, total } = readListPage(list, sort, range, undefined, filter);
          return { rows, total };
        },
        EMAIL_LIST_PAGE_SIZE,
      );
      return { sort, page: result.page, total: result.total, rows: result.rows.map((row) => toEmailListRow(list, row)), failed: false };
    },
    { sort, page: 1, total: 0, rows: [], failed: true },
  );
}

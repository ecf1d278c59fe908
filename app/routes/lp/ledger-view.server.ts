import type { LedgerViewRow } from "~/components/capital/ledger-table";
import { capitalAccountCopy as c, ledgerLineLabels } from "~/content/capital";
import { holdingKey, type LedgerRow } from "~/modules/capital-account/ledger.server";
import { formatDecimal } from "~/modules/capital/money";
import { adminDate } from "~/modules/dates/format";
import { noticeDocumentIds, noticeKey } from "~/modules/statements/reads.server";
import { documentDownloadPath } from "~/components/statements/paths";

/** A calendar date as the portal shows dates ('Mar 15, 2024'). */
export const portalDay = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));

/**
 * A ledger row as the transaction tables show it (/lp/capital-account's latest,
 * /lp/capital-account/ledger): words from content, the amount in its fund's
 * currency, and whether it is dated after its holding's latest valuation
 * (`valuedOn`: ledger.server.ts latestValuationDates).
 */
export function ledgerRowView(row: LedgerRow, valuedOn: ReadonlyMap<string, string>, pdfs: ReadonlyMap<string, string> = new Map()): LedgerViewRow {
  const kind = c.kinds[row.kind] ?? row.kind;
  const asOf = valuedOn.get(holdingKey(row.entityId, row.fundSlug));
  return {
    date: portalDay(row.date),
    kind: row.type ? `${kind}: ${ledgerLineLabels[row.type] ?? row.type}` : kind,
    entity: row.entityName,
    fund: row.fundName,
    reference: row.reference ?? "",
    notice: row.kind === "valuation" ? null : row.entryId,
    pdf: noticePdf(row, pdfs),
    amount: formatDecimal(row.amount, row.currency),
    after: asOf !== undefined && row.date > asOf,
  };
}

/** A call's or distribution's row links its notice PDF once made (a payment's row names the call it pays: no PDF). */
function noticePdf(row: LedgerRow, pdfs: ReadonlyMap<string, string>): LedgerViewRow["pdf"] {
  if ((row.kind !== "call" && row.kind !== "distribution") || !row.entryId || !row.reference) return null;
  const documentId = pdfs.get(noticeKey(row.entryId, row.entityId));
  return documentId ? { href: documentDownloadPath(documentId), label: c.noticePdfLabel(row.reference, row.entityName) } : null;
}

/** The investor's rows as the tables show them, with each call's and distribution's notice PDF (one query for all). */
export function ledgerRowViews(rows: readonly LedgerRow[], valuedOn: ReadonlyMap<string, string>): LedgerViewRow[] {
  const pdfs = noticeDocumentIds(rows.flatMap((row) => ((row.kind === "call" || row.kind === "distribution") && row.entryId ? [{ entryId: row.entryId, entityId: row.entityId }] : [])));
  return rows.map((row) => ledgerRowView(row, valuedOn, pdfs));
}

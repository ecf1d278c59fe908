import type { LedgerViewRow } from "~/components/capital/ledger-table";
import { capitalAccountCopy as c, ledgerLineLabels } from "~/content/capital";
import { holdingKey, type LedgerRow } from "~/modules/capital-account/ledger.server";
import { formatDecimal } from "~/modules/capital/money";
import { adminDate } from "~/modules/dates/format";

/** A calendar date as the portal shows dates ('Mar 15, 2024'). */
export const portalDay = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));

/**
 * A ledger row as the transaction tables show it (/lp/capital-account's latest,
 * /lp/capital-account/ledger): words from content, the amount in its fund's
 * currency, and whether it is dated after its holding's latest valuation
 * (`valuedOn`: ledger.server.ts latestValuationDates).
 */
export function ledgerRowView(row: LedgerRow, valuedOn: ReadonlyMap<string, string>): LedgerViewRow {
  const kind = c.kinds[row.kind] ?? row.kind;
  const asOf = valuedOn.get(holdingKey(row.entityId, row.fundSlug));
  return {
    date: portalDay(row.date),
    kind: row.type ? `${kind}: ${ledgerLineLabels[row.type] ?? row.type}` : kind,
    entity: row.entityName,
    fund: row.fundName,
    reference: row.reference ?? "",
    notice: row.kind === "valuation" ? null : row.entryId,
    amount: formatDecimal(row.amount, row.currency),
    after: asOf !== undefined && row.date > asOf,
  };
}

import { capitalAccountCopy, ledgerLineLabels } from "~/content/capital";
import type { LedgerRow } from "./ledger.server";

/**
 * One ledger transaction as a CSV record (under content/capital-lp.ts
 * ledgerCsvHeader), written and streamed by modules/export/csv.ts, whose
 * cells are formula-safe (an entity named "=HYPERLINK(…)" stays text). The
 * amount is the exact decimal string in its currency (positive; the
 * transaction says the direction), so a spreadsheet sums it without rounding.
 */
export function ledgerCsvCells(row: LedgerRow): string[] {
  return [
    row.date,
    row.entityName,
    row.fundName,
    capitalAccountCopy.kinds[row.kind] ?? row.kind,
    row.type ? (ledgerLineLabels[row.type] ?? row.type) : "",
    row.reference ?? "",
    row.amount,
    row.currency,
  ];
}

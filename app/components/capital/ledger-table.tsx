import { Link } from "react-router";
import { DataTable, type DataColumn } from "~/components/kit/data-table";
import { capitalAccountCopy as c } from "~/content/capital";

/** A transaction as the capital account's tables show it (app/routes/lp/ledger-view.server.ts makes it). */
export type LedgerViewRow = {
  /** 'Mar 15, 2024'. */
  date: string;
  /** 'Capital call: Investment', 'Payment received'. */
  kind: string;
  entity: string;
  fund: string;
  /** 'Call 3'; '' for a valuation. */
  reference: string;
  /** The call's or distribution's id: the reference links to its notice. */
  notice: string | null;
  /** Its notice PDF for the row's entity, once made (the investor's tables). */
  pdf: { href: string; label: string } | null;
  /** '$25,000.00'. */
  amount: string;
  /** Dated after the holding's latest valuation (the multiples and IRR are as of that date). */
  after: boolean;
};

/** The columns, each reference linking where `entryHref` says (an investor's notice, an admin's entry page). */
const columnsFor = (entryHref: (id: string) => string): DataColumn<LedgerViewRow>[] => [
  { key: "date", header: c.transactionColumns.date, width: "w-28", card: "meta", cell: (t) => (t.after ? `${t.date} (${c.afterValuation})` : t.date) },
  { key: "kind", header: c.transactionColumns.kind, rowHeader: true, card: "primary", cell: (t) => t.kind },
  { key: "entity", header: c.transactionColumns.entity, cell: (t) => t.entity },
  { key: "fund", header: c.transactionColumns.fund, width: "w-40", cell: (t) => t.fund },
  {
    key: "reference",
    header: c.transactionColumns.reference,
    width: "w-32",
    card: "badge",
    cell: (t) => (
      <>
        {t.notice && t.reference ? (
          <Link to={entryHref(t.notice)} className="notice-link">
            {t.reference}
          </Link>
        ) : (
          t.reference
        )}
        {t.pdf ? (
          <a href={t.pdf.href} download aria-label={t.pdf.label} className="notice-link ml-2 text-xs" data-testid="transaction-notice-pdf">
            {c.noticePdf}
          </a>
        ) : null}
      </>
    ),
  },
  { key: "amount", header: c.transactionColumns.amount, width: "w-36", className: "tabular-nums", cell: (t) => t.amount },
];

/**
 * The capital account's transactions (the account page's latest, the ledger's
 * pages): the kit's table, newest first, each call's and distribution's
 * reference a link to its notice.
 */
export function LedgerTable({
  label,
  rows,
  rowTestId,
  entryHref = investorNotice,
}: {
  label: string;
  rows: readonly LedgerViewRow[];
  rowTestId: string;
  /** Where a call's or distribution's reference leads (default: the investor's notice). */
  entryHref?: (id: string) => string;
}) {
  return <DataTable label={label} rows={rows} rowKey={(t) => `${rows.indexOf(t)}`} rowTestId={rowTestId} columns={columnsFor(entryHref)} dense />;
}

const investorNotice = (id: string) => `/lp/notices/${id}`;

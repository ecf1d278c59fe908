import type { Route } from "./+types/capital-account";
import { FigureList, type Figure } from "~/components/capital/figures";
import { Badge, DataTable, type DataColumn } from "~/components/kit/data-table";
import { EmptyState } from "~/components/kit/empty-state";
import { capitalAccountCopy as c, ledgerLineLabels } from "~/content/capital";
import { requireInvestor } from "~/modules/auth/guards.server";
import { capitalAccountFor, type FundAccount } from "~/modules/capital-account/capital-account.server";
import { formatDecimal } from "~/modules/capital/money";
import { adminDate } from "~/modules/dates/format";
import { pageMeta } from "~/modules/seo/meta";

const PATH = "/lp/capital-account";
/** The transactions shown per fund (the full ledger is one link away; issue 24 §8). */
const LATEST = 20;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: c.title, description: c.intro, path: PATH, noindex: true });

/** A calendar date as the portal shows dates ('Mar 15, 2024'). */
const day = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));
const multiple = (value: number | null) => (value === null ? c.notMeaningful : `${value.toFixed(2)}×`);
const percent = (value: number | null) => (value === null ? c.notMeaningful : `${(value * 100).toFixed(1)} %`);

function fundView(account: FundAccount) {
  const money = (amount: string) => formatDecimal(amount, account.fund.currency);
  const figures: Figure[] = [
    { label: c.figures.commitment, value: money(account.commitment), testId: "figure-commitment" },
    { label: c.figures.called, value: money(account.called), testId: "figure-called" },
    { label: c.figures.paidIn, value: money(account.paidIn), testId: "figure-paid-in" },
    { label: c.figures.outstanding, value: money(account.outstanding), testId: "figure-outstanding" },
    { label: c.figures.unfunded, value: money(account.unfunded), testId: "figure-unfunded" },
    { label: c.figures.distributed, value: money(account.distributed), testId: "figure-distributed" },
    { label: c.figures.nav, value: account.nav === null ? "—" : money(account.nav), hint: account.navDate ? c.navOn(day(account.navDate)) : c.noNav, testId: "figure-nav" },
  ];
  const asOf = account.asOf ? c.asOf(day(account.asOf)) : undefined;
  const multiples: Figure[] = account.asOf
    ? [
        { label: c.multiples.dpi, value: multiple(account.dpi), hint: asOf, testId: "figure-dpi" },
        { label: c.multiples.rvpi, value: multiple(account.rvpi), hint: asOf, testId: "figure-rvpi" },
        { label: c.multiples.tvpi, value: multiple(account.tvpi), hint: asOf, testId: "figure-tvpi" },
        { label: c.multiples.irr, value: percent(account.irr), hint: asOf, testId: "figure-irr" },
      ]
    : [{ label: c.multiples.dpi, value: multiple(account.dpi), testId: "figure-dpi" }];
  const transactions = account.flows
    .slice(-LATEST)
    .reverse()
    .map((flow, i) => ({
      key: `${flow.date}-${i}`,
      date: day(flow.date),
      kind: c.kinds[flow.kind] ?? flow.kind,
      type: flow.type ? (ledgerLineLabels[flow.type] ?? flow.type) : "",
      amount: money(flow.amount),
      reference: flow.reference ?? "",
      after: !!account.asOf && flow.date > account.asOf,
    }));
  return { fund: account.fund, figures, multiples, irrNote: account.irrNote ? (c.irrNotes[account.irrNote] ?? null) : null, transactions };
}

/** The layout guards too; every loader of a protected page guards itself. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  return {
    entities: capitalAccountFor(user).map((entity) => ({ id: entity.id, name: entity.name, role: c.role[entity.role] ?? entity.role, funds: entity.funds.map(fundView) })),
  };
}

type Transaction = ReturnType<typeof fundView>["transactions"][number];

const columns: DataColumn<Transaction>[] = [
  { key: "date", header: c.transactionColumns.date, width: "w-32", card: "meta", cell: (t) => (t.after ? `${t.date} (${c.afterValuation})` : t.date) },
  { key: "kind", header: c.transactionColumns.kind, rowHeader: true, card: "primary", cell: (t) => t.kind },
  { key: "type", header: c.transactionColumns.type, cell: (t) => t.type },
  { key: "reference", header: c.transactionColumns.reference, card: "badge", cell: (t) => t.reference },
  { key: "amount", header: c.transactionColumns.amount, className: "tabular-nums text-right", cell: (t) => t.amount },
];

/** /lp/capital-account: each entity the investor is a member of, each fund it has a commitment in. */
export default function CapitalAccount({ loaderData }: Route.ComponentProps) {
  const { entities } = loaderData;
  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{c.title}</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{c.intro}</p>
      {entities.length === 0 ? <EmptyState>{c.empty}</EmptyState> : null}
      {entities.map((entity) => (
        <section key={entity.id} aria-labelledby={`entity-${entity.id}`} className="mt-10" data-testid="capital-entity">
          <div className="flex flex-wrap items-center gap-3">
            <h2 id={`entity-${entity.id}`} className="text-xl font-semibold">
              {entity.name}
            </h2>
            <Badge tone="neutral">{entity.role}</Badge>
          </div>
          {entity.funds.map((fund) => (
            <section key={fund.fund.slug} aria-labelledby={`entity-${entity.id}-${fund.fund.slug}`} className="mt-6" data-testid="capital-fund">
              <h3 id={`entity-${entity.id}-${fund.fund.slug}`} className="text-lg font-semibold">
                {fund.fund.name}
              </h3>
              <FigureList figures={fund.figures} />
              <FigureList figures={fund.multiples} className="mt-3" />
              {fund.irrNote ? <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{fund.irrNote}</p> : null}
              {fund.transactions.length ? (
                <div className="mt-6">
                  <h4 className="text-base font-semibold">{c.transactions}</h4>
                  <DataTable label={`${c.transactions}: ${entity.name}, ${fund.fund.name}`} rows={fund.transactions} rowKey={(t) => t.key} rowTestId="capital-transaction" columns={columns} dense />
                </div>
              ) : null}
            </section>
          ))}
        </section>
      ))}
    </div>
  );
}

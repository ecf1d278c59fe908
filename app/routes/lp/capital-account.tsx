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
/** The latest transactions shown (of all the investor's entities and funds; issue 24 §8). */
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
  return { fund: account.fund, figures, multiples, irrNote: account.irrNote ? (c.irrNotes[account.irrNote] ?? null) : null };
}

/** The layout guards too; every loader of a protected page guards itself. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  const accounts = capitalAccountFor(user);
  // The latest LATEST transactions of all the investor's entities and funds, newest first (issue 24 §8).
  const transactions = accounts
    .flatMap((entity) =>
      entity.funds.flatMap((account) =>
        account.flows.map((flow) => ({ flow, entity: entity.name, fund: account.fund, after: !!account.asOf && flow.date > account.asOf })),
      ),
    )
    .sort((a, b) => (a.flow.date < b.flow.date ? 1 : a.flow.date > b.flow.date ? -1 : 0))
    .slice(0, LATEST)
    .map(({ flow, entity, fund, after }, i) => ({
      key: String(i),
      date: day(flow.date),
      entity,
      fund: fund.name,
      kind: c.kinds[flow.kind] ?? flow.kind,
      type: flow.type ? (ledgerLineLabels[flow.type] ?? flow.type) : "",
      amount: formatDecimal(flow.amount, fund.currency),
      reference: flow.reference ?? "",
      after,
    }));
  return {
    entities: accounts.map((entity) => ({ id: entity.id, name: entity.name, role: c.role[entity.role] ?? entity.role, funds: entity.funds.map(fundView) })),
    transactions,
  };
}

type Transaction = Route.ComponentProps["loaderData"]["transactions"][number];

const columns: DataColumn<Transaction>[] = [
  { key: "date", header: c.transactionColumns.date, width: "w-32", card: "meta", cell: (t) => (t.after ? `${t.date} (${c.afterValuation})` : t.date) },
  { key: "kind", header: c.transactionColumns.kind, rowHeader: true, card: "primary", cell: (t) => (t.type ? `${t.kind}: ${t.type}` : t.kind) },
  { key: "entity", header: c.transactionColumns.entity, cell: (t) => t.entity },
  { key: "fund", header: c.transactionColumns.fund, cell: (t) => t.fund },
  { key: "reference", header: c.transactionColumns.reference, card: "badge", cell: (t) => t.reference },
  { key: "amount", header: c.transactionColumns.amount, className: "tabular-nums", cell: (t) => t.amount },
];

/** /lp/capital-account: each entity the investor is a member of, each fund it has a commitment in. */
export default function CapitalAccount({ loaderData }: Route.ComponentProps) {
  const { entities, transactions } = loaderData;
  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{c.title}</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{c.intro}</p>
      {entities.length === 0 ? <EmptyState>{c.empty}</EmptyState> : null}
      {entities.map((entity) => (
        <section key={entity.id} aria-labelledby={`entity-${entity.id}`} className="mt-10" data-testid="capital-entity">
          <div className="flex flex-wrap items-center gap-3">
            <h2 id={`entity-${entity.id}`} className="text-2xl font-semibold">
              {entity.name}
            </h2>
            <Badge tone="neutral">{entity.role}</Badge>
          </div>
          {entity.funds.map((fund) => (
            <section key={fund.fund.slug} aria-labelledby={`entity-${entity.id}-${fund.fund.slug}`} className="mt-6" data-testid="capital-fund">
              <h3 id={`entity-${entity.id}-${fund.fund.slug}`} className="text-base font-semibold text-slate-700 uppercase tracking-wide dark:text-slate-200">
                {fund.fund.name}
              </h3>
              <FigureList figures={fund.figures} />
              <FigureList figures={fund.multiples} className="mt-3" />
              {fund.irrNote ? <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{fund.irrNote}</p> : null}
            </section>
          ))}
        </section>
      ))}
      {transactions.length ? (
        <section aria-labelledby="transactions-title" className="mt-10">
          <h2 id="transactions-title" className="text-xl font-semibold">
            {c.transactions}
          </h2>
          <DataTable label={c.transactions} rows={transactions} rowKey={(t) => t.key} rowTestId="capital-transaction" columns={columns} dense />
        </section>
      ) : null}
    </div>
  );
}

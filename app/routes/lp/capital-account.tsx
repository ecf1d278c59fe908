import { Download } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/capital-account";
import { CapitalChart, type ChartView } from "~/components/capital/capital-chart";
import { FigureGrid } from "~/components/capital/figure-grid";
import type { Figure } from "~/components/capital/figures";
import { LedgerTable } from "~/components/capital/ledger-table";
import { Badge } from "~/components/kit/data-table";
import { EmptyState } from "~/components/kit/empty-state";
import { FilterTabs } from "~/components/kit/filter-tabs";
import { PageSection } from "~/components/kit/page-section";
import { buttonClass } from "~/components/ui/form";
import { capitalAccountCopy as c } from "~/content/capital";
import { capitalLpCopy as lp, ledgerPageCopy } from "~/content/capital-lp";
import { requireInvestor } from "~/modules/auth/guards.server";
import { capitalAccountFor, combinedByCurrency, type CurrencyTotals, type FundAccount } from "~/modules/capital-account/capital-account.server";
import { chartGeometry, chartPoints, chartSummaryFacts } from "~/modules/capital-account/chart.server";
import { holdingKey, latestTransactions, ledgerQuerySchema } from "~/modules/capital-account/ledger.server";
import { formatDecimal, formatMoney } from "~/modules/capital/money";
import { notFound } from "~/modules/http/not-found";
import { pageMeta } from "~/modules/seo/meta";
import { lpStatements } from "~/modules/statements/reads.server";
import { LP_STATEMENTS_PATH, statementPath } from "~/components/statements/paths";
import { lpStatementsCopy as sc } from "~/content/statements";
import { ledgerRowViews, portalDay as day } from "./ledger-view.server";

const PATH = "/lp/capital-account";
const LEDGER = `${PATH}/ledger`;
/** The latest transactions shown (of all the investor's entities and funds; issue 24 §8). */
const LATEST = 20;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: c.title, description: c.intro, path: PATH, noindex: true });

const multiple = (value: number | null) => (value === null ? c.notMeaningful : `${value.toFixed(2)}×`);
const percent = (value: number | null) => (value === null ? c.notMeaningful : `${(value * 100).toFixed(1)} %`);

/** The chart of one holding, or null before its first payment, distribution or valuation. */
function chartView(entityName: string, account: FundAccount): ChartView | null {
  const { currency, name: fund } = account.fund;
  const points = chartPoints(account.flows, currency);
  const facts = chartSummaryFacts(points, currency);
  if (!facts) return null;
  const money = (minor: bigint) => formatMoney(minor, currency);
  return {
    shape: chartGeometry(points, currency),
    summary: lp.chart.summary({ fund, entity: entityName, ...facts }),
    caption: lp.chart.tableCaption(fund, entityName),
    rows: points.map((p) => [p.label, money(p.paidIn), money(p.distributed), p.nav === null ? lp.chart.noNav : money(p.nav)]),
  };
}

/** A holding's latest statement (its newest quarter's latest version), if one is published. */
type LatestStatement = { href: string; quarter: string };

function fundView(entityName: string, account: FundAccount, statement: LatestStatement | null) {
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
  return {
    fund: account.fund,
    figures,
    multiples,
    irrNote: account.irrNote ? (c.irrNotes[account.irrNote] ?? null) : null,
    chart: chartView(entityName, account),
    statement,
  };
}

function combinedView(totals: CurrencyTotals) {
  const money = (amount: string) => formatDecimal(amount, totals.currency);
  const f = c.figures;
  const figures: Figure[] = [
    { label: f.commitment, value: money(totals.commitment), hint: lp.combined.holdings(totals.holdings), testId: "combined-commitment" },
    { label: f.called, value: money(totals.called), testId: "combined-called" },
    { label: f.paidIn, value: money(totals.paidIn), testId: "combined-paid-in" },
    { label: f.unfunded, value: money(totals.unfunded), testId: "combined-unfunded" },
    { label: f.distributed, value: money(totals.distributed), testId: "combined-distributed" },
    { label: f.nav, value: totals.nav === null ? "—" : money(totals.nav), hint: totals.nav === null ? c.noNav : lp.combined.navHint, testId: "combined-nav" },
  ];
  return { currency: totals.currency, figures };
}

function missing(): never {
  throw notFound({ title: ledgerPageCopy.notFound.title, message: ledgerPageCopy.notFound.message, back: { to: PATH, label: ledgerPageCopy.back } });
}

/**
 * /lp/capital-account: the combined view of every holding (per currency),
 * then one entity at a time (tabs, `?entity={id}`; the first by name unless
 * chosen) with each fund it has a commitment in: its figures, multiples, IRR
 * and chart; then the latest transactions of all the investor's entities,
 * with the full ledger and its CSV a link away. An entity id that is not one
 * of the investor's is the unknown id's 404. The layout guards too; every
 * loader of a protected page guards itself.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  const query = ledgerQuerySchema.pick({ entity: true }).safeParse({ entity: new URL(request.url).searchParams.get("entity") ?? undefined });
  if (!query.success) missing();
  const accounts = capitalAccountFor(user);
  const chosen = query.data.entity ? accounts.find((entity) => entity.id === query.data.entity) : accounts[0];
  if (query.data.entity && !chosen) missing();
  // Each holding's valuation date, from the accounts already read: a transaction after it is marked.
  const valuedOn = new Map(accounts.flatMap((entity) => entity.funds.flatMap((f) => (f.asOf ? [[holdingKey(entity.id, f.fund.slug), f.asOf] as const] : []))));
  // Each holding's latest statement: the list is newest quarter first, so a holding's first row is its latest.
  const statements = chosen ? lpStatements(user).filter((s) => s.entityId === chosen.id) : [];
  const latestOf = new Map<string, LatestStatement>();
  for (const s of statements) if (!latestOf.has(s.fund.slug)) latestOf.set(s.fund.slug, { href: statementPath(s.id), quarter: s.quarter });
  return {
    combined: combinedByCurrency(accounts).map(combinedView),
    tabs: accounts.length > 1 ? accounts.map((entity) => ({ id: entity.id, name: entity.name })) : [],
    entity: chosen
      ? {
          id: chosen.id,
          name: chosen.name,
          role: c.role[chosen.role] ?? chosen.role,
          statements: statements.length > 0,
          funds: chosen.funds.map((account) => fundView(chosen.name, account, latestOf.get(account.fund.slug) ?? null)),
        }
      : null,
    transactions: ledgerRowViews(latestTransactions(user, LATEST), valuedOn),
  };
}

type Loaded = Route.ComponentProps["loaderData"];

function Combined({ combined }: { combined: Loaded["combined"] }) {
  return (
    <PageSection id="combined" title={c.combined} intro={c.combinedIntro}>
      {combined.map((group) => (
        <div key={group.currency} data-testid="capital-combined">
          {combined.length > 1 ? <h3 className="mt-4 text-sm font-semibold text-slate-700 dark:text-slate-200">{lp.combined.currency(group.currency)}</h3> : null}
          <FigureGrid figures={group.figures} className="mt-2 figure-grid-3" />
        </div>
      ))}
    </PageSection>
  );
}

function Holding({ fund }: { fund: NonNullable<Loaded["entity"]>["funds"][number] }) {
  // One entity is shown at a time: the fund's slug names its section.
  const headingId = `fund-${fund.fund.slug}`;
  return (
    <section aria-labelledby={headingId} className="mt-6" data-testid="capital-fund">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <h3 id={headingId} className="text-base font-semibold tracking-wide text-slate-700 uppercase dark:text-slate-200">
          {fund.fund.name}
        </h3>
        {fund.statement ? (
          <Link to={fund.statement.href} className="notice-link text-sm font-medium" aria-label={sc.links.latestLabel(fund.statement.quarter, fund.fund.name)} data-testid="holding-statement">
            {sc.links.latest(fund.statement.quarter)}
          </Link>
        ) : null}
      </div>
      <FigureGrid figures={fund.figures} />
      <FigureGrid figures={fund.multiples} className="mt-3" />
      {fund.irrNote ? <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{fund.irrNote}</p> : null}
      {fund.chart ? <CapitalChart chart={fund.chart} /> : <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">{lp.chart.empty}</p>}
    </section>
  );
}

/** /lp/capital-account: each entity the investor is a member of, each fund it has a commitment in. */
export default function CapitalAccount({ loaderData }: Route.ComponentProps) {
  const { combined, tabs, entity, transactions } = loaderData;
  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{c.title}</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{c.intro}</p>
      {entity ? null : <EmptyState>{c.empty}</EmptyState>}
      {combined.length ? <Combined combined={combined} /> : null}
      {entity && tabs.length ? (
        <FilterTabs label={lp.entityTabs} current={entity.id} tabs={tabs.map((tab) => ({ key: tab.id, label: tab.name, count: null, href: `${PATH}?entity=${encodeURIComponent(tab.id)}` }))} />
      ) : null}
      {entity ? (
        <section aria-labelledby="entity-title" className="mt-8" data-testid="capital-entity">
          <div className="flex flex-wrap items-center gap-3">
            <h2 id="entity-title" className="text-2xl font-semibold">
              {entity.name}
            </h2>
            <Badge tone="neutral">{entity.role}</Badge>
            <span className="ml-auto flex flex-wrap gap-x-4 gap-y-1">
              {entity.statements ? (
                <Link to={`${LP_STATEMENTS_PATH}?entity=${encodeURIComponent(entity.id)}`} className="notice-link text-sm font-medium">
                  {sc.links.all}
                </Link>
              ) : null}
              <Link to={`${LEDGER}?entity=${encodeURIComponent(entity.id)}`} className="notice-link text-sm font-medium">
                {lp.entityLedger}
              </Link>
            </span>
          </div>
          {entity.funds.map((fund) => (
            <Holding key={fund.fund.slug} fund={fund} />
          ))}
        </section>
      ) : null}
      {transactions.length ? (
        <section aria-labelledby="transactions-title" className="mt-10">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <h2 id="transactions-title" className="text-xl font-semibold">
              {c.transactions}
            </h2>
            <div className="flex flex-wrap gap-2">
              <Link to={LEDGER} className={buttonClass("secondary")}>
                {lp.transactions.fullLedger}
              </Link>
              <a href={`${LEDGER}.csv`} download className={buttonClass("secondary")}>
                <Download aria-hidden="true" className="size-4" />
                {lp.transactions.download}
              </a>
            </div>
          </div>
          <LedgerTable label={c.transactions} rows={transactions} rowTestId="capital-transaction" />
        </section>
      ) : null}
    </div>
  );
}

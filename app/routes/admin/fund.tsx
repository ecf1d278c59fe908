import { FileText, History, Landmark, Plus, Upload } from "lucide-react";
import { BackLink } from "~/components/kit/back-link";
import { Link } from "react-router";
import type { Route } from "./+types/fund";
import { PageSection } from "~/components/kit/page-section";
import { FigureList, type Figure } from "~/components/capital/figures";
import { Badge, DataTable, type DataColumn } from "~/components/kit/data-table";
import { buttonClass } from "~/components/ui/form";
import { fundsCopy as c, ledgerReference } from "~/content/capital";
import { ledgerPagesCopy as lc } from "~/content/ledger-pages";
import { ADMIN_PATHS, ledgerEntryPath } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { formatDecimal } from "~/modules/capital/money";
import { adminDate } from "~/modules/dates/format";
import { fundDetail } from "~/modules/fund-overview/fund-overview.server";
import { findFundBySlug } from "~/modules/funds/funds.server";
import { fundQuarters } from "~/modules/statements/reads.server";
import { fundStatementsCopy as sc } from "~/content/statements";
import { historyImportCopy } from "~/content/history-import";
import { notFound } from "~/modules/http/not-found";
import { pageMeta } from "~/modules/seo/meta";
import { lastPageOf, LIST_PAGE_SIZE, pageHref, Pager } from "~/components/ui/pager";

const LIST = ADMIN_PATHS.funds;
const day = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));

/** /admin/funds/{slug}: a fund's totals, commitments, calls and distributions, and valuations (issue 24 §9). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const asked = Math.max(1, Math.floor(Number(new URL(request.url).searchParams.get("page")) || 1));
  const windowOf = (page: number) => ({ offset: (page - 1) * LIST_PAGE_SIZE, limit: LIST_PAGE_SIZE });
  const read = (page: number) => (/^[\w-]{1,64}$/.test(params.slug) ? fundDetail(params.slug, windowOf(page)) : null);
  let page = asked;
  let detail = read(page);
  if (!detail) throw notFound({ title: c.notFound.title, message: c.notFound.message, back: { to: LIST, label: c.detail.back } });
  if (page > lastPageOf(detail.totals.entities)) {
    page = lastPageOf(detail.totals.entities);
    detail = read(page)!;
  }
  const { totals } = detail;
  const money = (amount: string) => formatDecimal(amount, totals.currency);
  const figures: Figure[] = [
    { label: c.detail.figures.commitments, value: money(totals.commitments), hint: `${totals.entities.toLocaleString("en-US")} ${c.detail.figures.entities.toLowerCase()}` },
    { label: c.detail.figures.called, value: money(totals.called), hint: totals.calledShare === null ? undefined : `${(totals.calledShare * 100).toFixed(1)} %` },
    { label: c.detail.figures.paidIn, value: money(totals.paidIn) },
    { label: c.detail.figures.distributed, value: money(totals.distributed) },
    { label: c.detail.figures.nav, value: totals.nav === null ? "—" : money(totals.nav), hint: totals.navDate ? c.detail.navOn(day(totals.navDate)) : c.detail.noNav },
  ];
  return {
    name: totals.name,
    slug: totals.slug,
    page,
    entityCount: totals.entities,
    figures,
    commitments: detail.commitments.map((x) => ({ id: x.id, entityId: x.entityId, name: x.name, amount: money(x.amount), accepted: day(x.acceptedOn) })),
    entries: detail.entries.map((e) => ({
      id: e.id,
      reference: e.number === null ? lc.fund.draft : ledgerReference(e.kind, e.number),
      kind: c.detail.kinds[e.kind] ?? e.kind,
      date: day(e.date),
      due: e.dueDate ? day(e.dueDate) : "—",
      total: money(e.total),
      paid: e.kind === "call" ? money(e.paid) : "—",
      status: c.detail.statuses[e.status] ?? e.status,
      draft: e.status === "draft",
    })),
    valuations: detail.valuations.map((v) => ({ date: day(v.date), entities: v.entities.toLocaleString("en-US"), total: money(v.total) })),
    latestStatements: latestQuarter(params.slug),
  };
}

/** The fund's newest quarter of statements (P&L imported or published) and its status, for the Statements section. */
function latestQuarter(slug: string): string | null {
  const fund = findFundBySlug(slug);
  const latest = fund ? fundQuarters(fund)[0] : undefined;
  if (!latest) return null;
  const version = latest.versions[0];
  const status = !version ? sc.quarters.status.none : version.status === "reopened" ? sc.quarters.status.reopened : sc.quarters.status.published(version.version);
  return sc.fundSection.latest(latest.quarter, status);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: args.data?.name ?? c.notFound.title, description: c.intro, path: `${LIST}/${args.params.slug}`, noindex: true });

type Loaded = Route.ComponentProps["loaderData"];

const commitmentColumns: DataColumn<Loaded["commitments"][number]>[] = [
  {
    key: "entity",
    header: c.detail.commitmentColumns.entity,
    rowHeader: true,
    card: "primary",
    cell: (x) => (
      <Link to={`${ADMIN_PATHS.entities}/${x.entityId}`} className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
        {x.name}
      </Link>
    ),
  },
  { key: "amount", header: c.detail.commitmentColumns.amount, className: "tabular-nums", cell: (x) => x.amount },
  { key: "accepted", header: c.detail.commitmentColumns.accepted, width: "w-32", card: "meta", cell: (x) => x.accepted },
];

const entryColumns: DataColumn<Loaded["entries"][number]>[] = [
  {
    key: "reference",
    header: c.detail.ledgerColumns.reference,
    rowHeader: true,
    card: "primary",
    cell: (e) => (
      <Link to={ledgerEntryPath(e.id)} className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
        {e.reference}
      </Link>
    ),
  },
  { key: "status", header: c.detail.ledgerColumns.status, width: "w-28", card: "badge", cell: (e) => <Badge tone={e.draft ? "warning" : "success"}>{e.status}</Badge> },
  { key: "kind", header: c.detail.ledgerColumns.kind, cell: (e) => e.kind },
  { key: "date", header: c.detail.ledgerColumns.date, width: "w-32", card: "meta", cell: (e) => e.date },
  { key: "due", header: c.detail.ledgerColumns.due, width: "w-32", cell: (e) => e.due },
  { key: "total", header: c.detail.ledgerColumns.total, className: "tabular-nums", cell: (e) => e.total },
  { key: "paid", header: c.detail.ledgerColumns.paid, className: "tabular-nums", cell: (e) => e.paid },
];

const valuationColumns: DataColumn<Loaded["valuations"][number]>[] = [
  { key: "date", header: c.detail.valuationColumns.date, rowHeader: true, card: "primary", cell: (v) => v.date },
  { key: "entities", header: c.detail.valuationColumns.entities, className: "tabular-nums", cell: (v) => v.entities },
  { key: "total", header: c.detail.valuationColumns.total, className: "tabular-nums", cell: (v) => v.total },
];

export default function FundPage({ loaderData }: Route.ComponentProps) {
  const { name, slug, page, entityCount, figures, commitments, entries, valuations, latestStatements } = loaderData;
  return (
    <>
      <BackLink to={LIST}>{c.detail.back}</BackLink>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{name}</h1>
        <div className="flex flex-wrap gap-2">
          <Link to={`${LIST}/${slug}/import`} className={buttonClass("secondary")}>
            <History aria-hidden="true" className="size-4" />
            {historyImportCopy.title}
          </Link>
          <Link to={`${LIST}/${slug}/payment-instructions`} className={buttonClass("secondary")}>
            <Landmark aria-hidden="true" className="size-4" />
            {lc.fund.paymentInstructions}
          </Link>
        </div>
      </div>
      <FigureList figures={figures} />
      <PageSection
        id="ledger"
        title={c.detail.ledger}
        actions={
          <>
            <Link to={`${LIST}/${slug}/calls/new`} className={buttonClass("primary")}>
              <Plus aria-hidden="true" className="size-4" />
              {lc.fund.newCall}
            </Link>
            <Link to={`${LIST}/${slug}/distributions/new`} className={buttonClass("secondary")}>
              <Plus aria-hidden="true" className="size-4" />
              {lc.fund.newDistribution}
            </Link>
          </>
        }
      >
        {entries.length ? <DataTable label={c.detail.ledger} rows={entries} rowKey={(e) => e.id} rowTestId="ledger-row" columns={entryColumns} /> : <p className="text-sm text-slate-600 dark:text-slate-300">{c.detail.noLedger}</p>}
      </PageSection>
      <PageSection id="commitments" title={c.detail.commitments}>
        {commitments.length ? (
          <>
            <DataTable label={c.detail.commitments} rows={commitments} rowKey={(x) => x.id} rowTestId="fund-commitment-row" columns={commitmentColumns} />
            <Pager label={c.detail.commitments} page={page} total={entityCount} shown={commitments.length} hrefFor={(p) => pageHref({ pathname: `${LIST}/${slug}`, search: "", param: "page", page: p, anchor: "commitments" })} />
          </>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300">{c.detail.noCommitments}</p>
        )}
      </PageSection>
      <PageSection
        id="valuations"
        title={c.detail.valuations}
        actions={
          <Link to={`${LIST}/${slug}/valuations`} className={buttonClass("secondary")}>
            <Upload aria-hidden="true" className="size-4" />
            {lc.fund.importValuations}
          </Link>
        }
      >
        {valuations.length ? <DataTable label={c.detail.valuations} rows={valuations} rowKey={(v) => v.date} columns={valuationColumns} /> : <p className="text-sm text-slate-600 dark:text-slate-300">{c.detail.noValuations}</p>}
      </PageSection>
      <PageSection
        id="statements"
        title={sc.fundSection.title}
        intro={sc.fundSection.intro}
        actions={
          <Link to={`${LIST}/${slug}/statements`} className={buttonClass("secondary")}>
            <FileText aria-hidden="true" className="size-4" />
            {sc.fundLink}
          </Link>
        }
      >
        <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="fund-statements-latest">
          {latestStatements ?? sc.fundSection.none}
        </p>
      </PageSection>
    </>
  );
}

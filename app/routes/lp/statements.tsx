import { Download, FileText } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/statements";
import { Badge, DataTable, type DataColumn } from "~/components/kit/data-table";
import { EmptyState } from "~/components/kit/empty-state";
import { FilterTabs } from "~/components/kit/filter-tabs";
import { documentDownloadPath, LP_STATEMENTS_PATH, statementPath } from "~/components/statements/paths";
import { lastPageOf, LIST_PAGE_SIZE, pageHref, Pager } from "~/components/ui/pager";
import { lpStatementsCopy as c, statementCopy } from "~/content/statements";
import { requireInvestor } from "~/modules/auth/guards.server";
import { notFound } from "~/modules/http/not-found";
import { pageMeta } from "~/modules/seo/meta";
import { compareQuarters } from "~/modules/statements/quarter";
import { lpStatements } from "~/modules/statements/reads.server";

const PATH = LP_STATEMENTS_PATH;
const ID = /^[\w-]{1,100}$/;

function missing(): never {
  throw notFound({ title: c.notFound.title, message: c.notFound.message, back: { to: PATH, label: c.statement.back } });
}

/**
 * /lp/statements (issue 25 §2): the investor's statements, the latest version
 * of each entity × fund × quarter, newest quarter first, one table; with more
 * than one entity, tabs narrow it to one (`?entity={id}`; an id that is not
 * one of theirs is the unknown id's 404). Each row opens the statement's page,
 * and its PDF once the background job has made it.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  const url = new URL(request.url);
  const entity = url.searchParams.get("entity");
  if (entity !== null && !ID.test(entity)) missing();
  const all = lpStatements(user)
    .slice()
    .sort((a, b) => compareQuarters(b.quarter, a.quarter) || a.fund.name.localeCompare(b.fund.name) || a.entityName.localeCompare(b.entityName) || a.entityId.localeCompare(b.entityId));
  const entities = [...new Map(all.map((s) => [s.entityId, s.entityName])).entries()].map(([id, name]) => ({ id, name, count: 0 })).sort((a, b) => a.name.localeCompare(b.name));
  for (const s of all) entities.find((e) => e.id === s.entityId)!.count += 1;
  if (entity !== null && !entities.some((e) => e.id === entity)) missing();
  const shown = entity === null ? all : all.filter((s) => s.entityId === entity);
  const asked = Math.max(1, Math.floor(Number(url.searchParams.get("page")) || 1));
  const page = Math.min(asked, lastPageOf(shown.length));
  return {
    entity,
    total: all.length,
    count: shown.length,
    page,
    search: url.search,
    tabs: entities.length > 1 ? entities : [],
    rows: shown
      .slice((page - 1) * LIST_PAGE_SIZE, page * LIST_PAGE_SIZE)
      .map((s) => ({ id: s.id, quarter: s.quarter, fund: s.fund.name, entity: s.entityName, version: s.version, restated: s.restated, pdf: s.documentId ? documentDownloadPath(s.documentId) : null })),
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: c.title, description: c.intro, path: PATH, noindex: true });

type Row = Route.ComponentProps["loaderData"]["rows"][number];

const columns: DataColumn<Row>[] = [
  { key: "quarter", header: c.columns.quarter, rowHeader: true, card: "primary", width: "w-28", className: "font-semibold tabular-nums", cell: (s) => s.quarter },
  { key: "fund", header: c.columns.fund, cell: (s) => s.fund },
  { key: "entity", header: c.columns.entity, cell: (s) => s.entity },
  {
    key: "version",
    header: c.columns.version,
    width: "w-36",
    card: "badge",
    cell: (s) => (
      <span className="inline-flex flex-wrap items-center gap-1.5">
        <Badge tone="neutral">{c.version(s.version)}</Badge>
        {s.restated ? <Badge tone="warning">{statementCopy.restated}</Badge> : null}
      </span>
    ),
  },
  {
    key: "actions",
    header: c.columns.actions,
    headerHidden: true,
    width: "w-48",
    // On a phone the card's last line, without a label (the links say what they do).
    card: "meta",
    className: "sm:text-right max-sm:order-6 max-sm:pt-1.5",
    cell: (s) => (
      <span className="inline-flex flex-wrap items-center gap-x-4 gap-y-1 sm:justify-end">
        <Link to={statementPath(s.id)} className="notice-link inline-flex items-center gap-1 text-sm font-medium" aria-label={c.viewLabel(s.quarter, s.fund, s.entity)}>
          <FileText aria-hidden="true" className="size-4" />
          {c.view}
        </Link>
        {s.pdf ? (
          <a href={s.pdf} download className="notice-link inline-flex items-center gap-1 text-sm font-medium" aria-label={c.pdfLabel(s.quarter, s.fund, s.entity)} data-testid="statement-pdf">
            <Download aria-hidden="true" className="size-4" />
            {c.pdf}
          </a>
        ) : (
          <span className="text-xs text-slate-600 dark:text-slate-300">{c.pdfPending}</span>
        )}
      </span>
    ),
  },
];

export default function StatementsPage({ loaderData }: Route.ComponentProps) {
  const { entity, total, count, page, search, tabs, rows } = loaderData;
  return (
    <div>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{c.title}</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{c.intro}</p>
      {total === 0 ? (
        <EmptyState testId="statements-empty">{c.empty}</EmptyState>
      ) : (
        <>
          {tabs.length ? (
            <FilterTabs
              label={c.entityTabs}
              current={entity ?? ""}
              tabs={[{ key: "", label: c.allEntities, count: total, href: PATH }, ...tabs.map((tab) => ({ key: tab.id, label: tab.name, count: tab.count, href: `${PATH}?entity=${encodeURIComponent(tab.id)}` }))]}
            />
          ) : null}
          <section id="statements" aria-label={c.table}>
            <DataTable label={c.table} rows={rows} rowKey={(s) => s.id} rowTestId="statement-row" columns={columns} />
            <Pager label={c.table} page={page} total={count} shown={rows.length} hrefFor={(p) => pageHref({ pathname: PATH, search, param: "page", page: p, anchor: "statements" })} />
          </section>
        </>
      )}
    </div>
  );
}

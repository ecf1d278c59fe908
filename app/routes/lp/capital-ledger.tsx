import { ArrowLeft, Download } from "lucide-react";
import { Form, Link, useLocation } from "react-router";
import type { Route } from "./+types/capital-ledger";
import { LedgerTable } from "~/components/capital/ledger-table";
import { SelectField } from "~/components/kit/fields";
import { EmptyState } from "~/components/kit/empty-state";
import { hrefWith } from "~/components/kit/query";
import { Button, buttonClass } from "~/components/ui/form";
import { LIST_PAGE_SIZE, pageHref, Pager } from "~/components/ui/pager";
import { ledgerPageCopy as c } from "~/content/capital-lp";
import { requireInvestor } from "~/modules/auth/guards.server";
import { latestValuationDates, ledgerPage, ledgerQuerySchema, resolveLedgerFilters } from "~/modules/capital-account/ledger.server";
import { isAppError } from "~/modules/http/app-error";
import { notFound } from "~/modules/http/not-found";
import { pageMeta } from "~/modules/seo/meta";
import { ledgerRowViews } from "./ledger-view.server";

const BACK = "/lp/capital-account";
const PAGE = `${BACK}/ledger`;
const EXPORT = `${PAGE}.csv`;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: c.title, description: c.intro, path: PAGE, noindex: true });

function missing(): never {
  throw notFound({ title: c.notFound.title, message: c.notFound.message, back: { to: BACK, label: c.back } });
}

/**
 * /lp/capital-account/ledger?entity=&fund=&page=: every transaction of the
 * investor's entities, newest first, LIST_PAGE_SIZE a page (past the end is
 * the last page), filtered by a GET form that works without JavaScript, with
 * the CSV of the same filters. A filter naming an entity that is not the
 * investor's (or a fund none of their entities is in) is the unknown id's 404.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  const params = new URL(request.url).searchParams;
  const query = ledgerQuerySchema.safeParse({ entity: params.get("entity") ?? undefined, fund: params.get("fund") ?? undefined, page: params.get("page") ?? undefined });
  if (!query.success) missing();
  let resolved;
  try {
    resolved = resolveLedgerFilters(user, query.data);
  } catch (error) {
    if (isAppError(error) && error.status === 404) missing();
    throw error;
  }
  const { filters, choices } = resolved;
  const result = ledgerPage(user, filters, { page: query.data.page, size: LIST_PAGE_SIZE });
  const valuedOn = latestValuationDates(user);
  return {
    entities: choices.entities,
    funds: choices.funds.map(({ slug, name }) => ({ slug, name })),
    selected: { entity: filters.entity?.id ?? "", fund: filters.fund?.slug ?? "" },
    rows: ledgerRowViews(result.rows, valuedOn),
    total: result.total,
    page: result.page,
  };
}

function Filters({ entities, funds, selected }: Pick<Route.ComponentProps["loaderData"], "entities" | "funds" | "selected">) {
  const f = c.filters;
  // The selects are uncontrolled: a new query (Clear filters, Back) makes a new form showing it.
  const { search } = useLocation();
  return (
    <Form key={search} method="get" action={PAGE} role="search" aria-label={f.label} className="mt-6 grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
      <SelectField id="ledger-entity" name="entity" label={f.entity} defaultValue={selected.entity}>
        <option value="">{f.anyEntity}</option>
        {entities.map((entity) => (
          <option key={entity.id} value={entity.id}>
            {entity.name}
          </option>
        ))}
      </SelectField>
      <SelectField id="ledger-fund" name="fund" label={f.fund} defaultValue={selected.fund}>
        <option value="">{f.anyFund}</option>
        {funds.map((fund) => (
          <option key={fund.slug} value={fund.slug}>
            {fund.name}
          </option>
        ))}
      </SelectField>
      <div className="flex gap-3">
        <Button type="submit">{f.submit}</Button>
        {selected.entity || selected.fund ? (
          <Link to={PAGE} className={buttonClass("secondary")}>
            {f.clear}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

export default function CapitalLedger({ loaderData }: Route.ComponentProps) {
  const { entities, funds, selected, rows, total, page } = loaderData;
  const { search } = useLocation();
  const filtered = Boolean(selected.entity || selected.fund);
  const filterQuery = { entity: selected.entity || null, fund: selected.fund || null };
  return (
    <div>
      <Link to={BACK} className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {c.back}
      </Link>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{c.title}</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{c.intro}</p>
      {entities.length ? <Filters entities={entities} funds={funds} selected={selected} /> : null}
      {total ? (
        <section id="transactions" aria-labelledby="transactions-title" className="mt-8">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <h2 id="transactions-title" className="text-lg font-semibold">
              {c.table}
            </h2>
            <div className="flex flex-col items-start sm:items-end">
              <a href={hrefWith(EXPORT, "", filterQuery)} download className={buttonClass("secondary")} aria-describedby="ledger-export-hint">
                <Download aria-hidden="true" className="size-4" />
                {c.download}
              </a>
              <p id="ledger-export-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-300">
                {c.downloadHint}
              </p>
            </div>
          </div>
          <LedgerTable label={c.table} rows={rows} rowTestId="ledger-transaction" />
          <Pager label={c.table} page={page} total={total} shown={rows.length} hrefFor={(p) => pageHref({ pathname: PAGE, search, param: "page", page: p, anchor: "transactions" })} />
        </section>
      ) : (
        <EmptyState>{filtered ? c.noMatch : c.empty}</EmptyState>
      )}
    </div>
  );
}

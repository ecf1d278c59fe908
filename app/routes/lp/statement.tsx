import { Download, History, Printer } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/statement";
import { FigureList } from "~/components/capital/figures";
import { BackLink } from "~/components/kit/back-link";
import { Badge } from "~/components/kit/data-table";
import { documentDownloadPath, LP_STATEMENTS_PATH, statementPath } from "~/components/statements/paths";
import { RestatedBox } from "~/components/statements/restated-box";
import { RollForwardTable } from "~/components/statements/roll-forward-table";
import { statementView } from "~/components/statements/statement-view";
import { buttonClass } from "~/components/ui/form";
import { useHydrated } from "~/components/ui/use-hydrated";
import { lpStatementsCopy as lc, statementCopy as c } from "~/content/statements";
import { requireInvestor } from "~/modules/auth/guards.server";
import { notFound } from "~/modules/http/not-found";
import { pageMeta } from "~/modules/seo/meta";
import { lpStatement } from "~/modules/statements/reads.server";
import { portalDay } from "./ledger-view.server";

const ID = /^[\w-]{1,100}$/;

/**
 * /lp/statements/{id} (issue 25 §2): one capital account statement as a page,
 * from the figures frozen when its quarter was published: the roll-forward
 * (quarter, year to date, inception to date), the figures as of the quarter
 * end, the notes, a restatement's differences, the other versions and the PDF
 * once made. It prints as a clean statement (app.css, @media print). Another
 * entity's statement reads exactly like an unknown id: the 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  const found = ID.test(params.id) ? lpStatement(user, params.id) : null;
  if (!found) throw notFound({ title: lc.notFound.title, message: lc.notFound.message, back: { to: LP_STATEMENTS_PATH, label: lc.statement.back } });
  const view = statementView(found.doc, portalDay);
  return {
    firmName: found.doc.firmName,
    title: lc.statement.documentTitle(view.fund.name, view.quarter, view.entity.name),
    statement: view,
    pdf: found.documentId ? documentDownloadPath(found.documentId) : null,
    earlier: found.earlierVersions
      .slice()
      .sort((a, b) => b.version - a.version)
      .map((v) => ({ href: statementPath(v.id), version: v.version })),
    later: found.laterVersion ? { href: statementPath(found.laterVersion.id) } : null,
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: args.data?.title ?? lc.notFound.title, description: lc.statement.description, path: `${LP_STATEMENTS_PATH}/${args.params.id}`, noindex: true });

type Loaded = Route.ComponentProps["loaderData"];

function PrintButton() {
  // window.print() needs a script; without one the browser's own Print prints the same page.
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button type="button" onClick={() => window.print()} className={buttonClass("secondary")}>
      <Printer aria-hidden="true" className="size-4" />
      {c.print}
    </button>
  );
}

function Header({ firmName, statement, pdf, title }: Pick<Loaded, "firmName" | "statement" | "pdf" | "title">) {
  const meta = [
    { label: c.meta.fund, value: statement.fund.name },
    { label: c.meta.entity, value: statement.entity.name },
    { label: c.meta.currency, value: statement.fund.currency },
  ];
  return (
    <div className="mt-4 flex flex-col gap-4 border-b border-slate-200 pb-5 sm:flex-row sm:items-start sm:justify-between dark:border-slate-800">
      <div className="min-w-0">
        <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">{firmName}</p>
        <h1 className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-2xl font-bold tracking-tight sm:text-3xl">
          <span>
            {lc.statement.title} <span className="tabular-nums">{statement.quarter}</span>
          </span>
          {statement.restated ? (
            <span className="text-base font-normal" data-testid="statement-restated">
              <Badge tone="warning">{c.restated}</Badge>
            </span>
          ) : null}
        </h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          {c.meta.periodEnded(statement.periodEnd)} · {c.meta.version(statement.version)} · {c.meta.publishedOn(statement.publishedOn)}
        </p>
        <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
          {meta.map((item) => (
            <div key={item.label} className="flex gap-1.5">
              <dt className="text-slate-600 dark:text-slate-300">{item.label}</dt>
              <dd className="font-medium text-slate-900 dark:text-white" data-testid={`statement-${item.label.toLowerCase()}`}>
                {item.value}
              </dd>
            </div>
          ))}
        </dl>
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-2" data-print="hide">
        <PrintButton />
        {pdf ? (
          <a href={pdf} download className={buttonClass("primary")} aria-label={c.pdfLabel(title)} data-testid="statement-pdf">
            <Download aria-hidden="true" className="size-4" />
            {c.pdf}
          </a>
        ) : null}
      </div>
    </div>
  );
}

export default function StatementPage({ loaderData }: Route.ComponentProps) {
  const { firmName, title, statement, pdf, earlier, later } = loaderData;
  return (
    <article aria-labelledby="statement-title" data-statement="">
      <div data-print="hide">
        <BackLink to={LP_STATEMENTS_PATH}>{lc.statement.back}</BackLink>
      </div>
      <span id="statement-title" className="sr-only">
        {title}
      </span>
      <Header firmName={firmName} statement={statement} pdf={pdf} title={title} />
      {pdf ? null : (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300" data-print="hide" data-testid="statement-pdf-pending">
          {c.pdfPending}
        </p>
      )}
      {later ? (
        <p
          role="note"
          className="mt-5 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100"
        >
          <History aria-hidden="true" className="size-4 shrink-0" />
          <span>{c.versions.later}</span>
          <Link to={later.href} className="font-semibold underline underline-offset-4" data-print="hide">
            {c.versions.readLater}
          </Link>
        </p>
      ) : null}
      {statement.restated ? <RestatedBox version={statement.version} differences={statement.differences} /> : null}
      <div className="mt-6">
        <RollForwardTable table={statement.table} />
      </div>
      <section aria-labelledby="figures-title" className="mt-8">
        <h2 id="figures-title" className="text-lg font-semibold">
          {c.figures.title}
        </h2>
        <FigureList figures={statement.figures} className="mt-3" />
        {statement.irrNote ? <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{statement.irrNote}</p> : null}
      </section>
      <section aria-labelledby="notes-title" className="mt-8">
        <h2 id="notes-title" className="text-lg font-semibold">
          {c.notes.title}
        </h2>
        <ol className="mt-2 max-w-3xl list-decimal space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-300" data-testid="statement-notes">
          {statement.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ol>
      </section>
      {earlier.length || later ? (
        <nav aria-labelledby="versions-title" className="mt-8" data-print="hide">
          <h2 id="versions-title" className="text-lg font-semibold">
            {c.versions.title}
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            {later ? (
              <li>
                <Link to={later.href} className="notice-link font-medium">
                  {c.versions.readLater}
                </Link>
              </li>
            ) : null}
            <li className="font-medium">{c.versions.current(statement.version)}</li>
            {earlier.map((v) => (
              <li key={v.href}>
                <Link to={v.href} className="notice-link font-medium">
                  {c.versions.earlier(v.version)}
                </Link>{" "}
                <span className="text-slate-600 dark:text-slate-300">({c.versions.superseded})</span>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </article>
  );
}

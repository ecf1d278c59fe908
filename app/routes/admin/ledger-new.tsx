import { Info } from "lucide-react";
import { BackLink } from "~/components/kit/back-link";
import { Link } from "react-router";
import type { Route } from "./+types/ledger-new";
import { emptyLine, LedgerForm, type LedgerKind } from "~/components/capital/ledger-form";
import { fundsCopy, ledgerLineLabels } from "~/content/capital";
import { ledgerPagesCopy as c } from "~/content/ledger-pages";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { commitmentsInForce } from "~/modules/commitments/commitments.server";
import { now } from "~/modules/config/clock.server";
import { adminDate } from "~/modules/dates/format";
import { findFundBySlug } from "~/modules/funds/funds.server";
import { isAppError } from "~/modules/http/app-error";
import { readFormData } from "~/modules/http/form-data.server";
import { notFound } from "~/modules/http/not-found";
import { CALL_NOTICE_BUSINESS_DAYS, readEntry } from "~/modules/ledger/ledger.server";
import { addBusinessDays, firmDay } from "~/modules/pitch-clock/clock.server";
import { pageMeta } from "~/modules/seo/meta";
import { answerLedgerForm, lineTypesOf } from "./ledger-actions.server";

const SLUG = /^[\w-]{1,64}$/;
const ID = /^[\w-]{1,100}$/;
const day = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));

/** Which form this is: /admin/funds/{slug}/calls/new or …/distributions/new (one module serves both). */
function kindOf(request: Request): LedgerKind {
  return /\/calls\/new(\.data)?$/.test(new URL(request.url).pathname) ? "call" : "distribution";
}

function fundOf(slug: string) {
  const fund = SLUG.test(slug) ? findFundBySlug(slug) : undefined;
  if (!fund) throw notFound({ title: fundsCopy.notFound.title, message: fundsCopy.notFound.message, back: { to: ADMIN_PATHS.funds, label: fundsCopy.detail.back } });
  return fund;
}

/** The published entry of this fund and kind that `?correctionOf=` names, or null (anything else is left out: the form then drafts no correction). */
function correctionTarget(id: string | null, fundSlug: string, kind: LedgerKind) {
  if (!id || !ID.test(id)) return null;
  try {
    const entry = readEntry(id, undefined, kind);
    return entry.status === "published" && entry.fund === fundSlug ? { id: entry.id, reference: entry.reference!, date: day(entry.date) } : null;
  } catch (error) {
    if (isAppError(error) && error.status === 404) return null;
    throw error;
  }
}

/**
 * /admin/funds/{slug}/calls/new and /admin/funds/{slug}/distributions/new
 * (issue 24 §4–5): the dates and the lines; "Preview the allocation" drafts
 * the entry and opens its page. `?correctionOf={id}` drafts a correction of a
 * published entry of the fund.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const fund = fundOf(params.slug);
  const kind = kindOf(request);
  const today = firmDay(now());
  const correction = correctionTarget(new URL(request.url).searchParams.get("correctionOf"), fund.slug, kind);
  const types = lineTypesOf(kind);
  return {
    kind,
    fund: { slug: fund.slug, name: fund.name, currency: fund.currency },
    types: types.map((value) => ({ value, label: ledgerLineLabels[value] ?? value })),
    correction,
    // Anyone ever committed (a call may be dated back): none means no entry can be split yet.
    hasCommitments: commitmentsInForce(fund.id, "9999-12-31").length > 0,
    initial: {
      noticeDate: today,
      dueDate: addBusinessDays(today, CALL_NOTICE_BUSINESS_DAYS),
      paymentDate: today,
      correctionOf: correction?.id ?? "",
      lines: [emptyLine(types[0]!)],
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const fund = fundOf(params.slug);
  return answerLedgerForm(admin, { kind: kindOf(request), fund }, await readFormData(request));
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.data ? `${c.form.title[args.data.kind]} · ${args.data.fund.name}` : fundsCopy.notFound.title,
    description: c.meta.description,
    path: args.location.pathname,
    noindex: true,
  });

export default function NewLedgerEntryPage({ loaderData }: Route.ComponentProps) {
  const { kind, fund, types, correction, hasCommitments, initial } = loaderData;
  const fundPath = `${ADMIN_PATHS.funds}/${fund.slug}`;
  return (
    <>
      <BackLink to={fundPath}>{c.form.back(fund.name)}</BackLink>
      <h1 id="ledger-form-title" className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">
        {c.form.title[kind]}
      </h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{c.form.intro[kind]}</p>
      {correction ? (
        <p data-testid="ledger-correction" className="mt-4 flex max-w-3xl items-start gap-3 rounded-lg border border-sky-300 bg-sky-50 px-4 py-3 text-sm text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{c.form.corrects(kind, correction.reference, correction.date)}</span>
        </p>
      ) : null}
      {hasCommitments ? null : (
        <p role="status" className="mt-4 flex max-w-3xl items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            {c.form.noCommitments(fund.name)}{" "}
            <Link to={ADMIN_PATHS.entities} className="font-medium underline underline-offset-4">
              {c.form.entitiesLink}
            </Link>
          </span>
        </p>
      )}
      <LedgerForm kind={kind} action={`${fundPath}/${kind === "call" ? "calls" : "distributions"}/new`} currency={fund.currency} types={types} initial={initial} submitLabel={c.form.preview} cancel={{ to: fundPath, label: c.form.cancel }} />
    </>
  );
}

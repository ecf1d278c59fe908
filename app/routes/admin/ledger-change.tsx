import { BackLink } from "~/components/kit/back-link";
import type { Route } from "./+types/ledger-change";
import { LedgerForm } from "~/components/capital/ledger-form";
import { fundsCopy, ledgerLineLabels } from "~/content/capital";
import { ledgerPagesCopy as c } from "~/content/ledger-pages";
import { ADMIN_PATHS, ledgerEntryPath } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { fundBySlug } from "~/modules/funds/funds.server";
import { isAppError } from "~/modules/http/app-error";
import { readFormData } from "~/modules/http/form-data.server";
import { notFound } from "~/modules/http/not-found";
import { readEntry } from "~/modules/ledger/ledger.server";
import { redirectWithFlash } from "~/modules/toast/flash.server";
import { pageMeta } from "~/modules/seo/meta";
import { answerLedgerForm, lineTypesOf } from "./ledger-actions.server";

const ID = /^[\w-]{1,100}$/;

/** The draft at this address; a published entry goes back to its page (it is never changed), anything else is the unknown id's 404. */
async function draftOf(id: string) {
  let entry;
  try {
    entry = ID.test(id) ? readEntry(id) : null;
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
  }
  if (!entry) throw notFound({ title: c.notFound.title, message: c.notFound.message, back: { to: ADMIN_PATHS.funds, label: fundsCopy.detail.back } });
  if (entry.status === "published") throw await redirectWithFlash(ledgerEntryPath(entry.id), { toast: c.publishedCannotChange }, { status: 303 });
  return entry;
}

/**
 * /admin/ledger/{id}/change: a draft's form, filled in from the draft (issue
 * 24 §4: "a draft can be changed"). Saving replaces its dates and lines and
 * splits them again (redraftEntry), then shows the draft's page.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const entry = await draftOf(params.id);
  const fund = fundBySlug(entry.fund as "fund-i");
  return {
    id: entry.id,
    kind: entry.kind,
    fund: { slug: fund.slug, name: fund.name, currency: fund.currency },
    types: lineTypesOf(entry.kind).map((value) => ({ value, label: ledgerLineLabels[value] ?? value })),
    initial: {
      noticeDate: entry.noticeDate ?? "",
      dueDate: entry.dueDate ?? "",
      paymentDate: entry.paymentDate ?? "",
      correctionOf: entry.correctionOf ?? "",
      lines: entry.lines.map((line) => ({ type: line.type, amount: line.amount, description: line.description ?? "", recallable: line.recallable ?? false })),
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const entry = await draftOf(params.id);
  return answerLedgerForm(admin, { kind: entry.kind, fund: fundBySlug(entry.fund as "fund-i"), entryId: entry.id }, await readFormData(request));
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: args.data ? c.form.changeTitle[args.data.kind] : c.notFound.title, description: c.meta.description, path: args.location.pathname, noindex: true });

export default function ChangeLedgerDraftPage({ loaderData }: Route.ComponentProps) {
  const { id, kind, fund, types, initial } = loaderData;
  const back = ledgerEntryPath(id);
  return (
    <>
      <BackLink to={back}>{c.form.backToDraft}</BackLink>
      <h1 id="ledger-form-title" className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">
        {c.form.changeTitle[kind]}
      </h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">
        {fund.name} · {c.form.intro[kind]}
      </p>
      <LedgerForm kind={kind} action={`${back}/change`} currency={fund.currency} types={types} initial={initial} submitLabel={c.form.save} cancel={{ to: back, label: c.form.cancel }} />
    </>
  );
}

import { ChevronDown, Info, Pencil, Send, Trash2, TriangleAlert } from "lucide-react";
import { BackLink } from "~/components/kit/back-link";
import { useEffect, useRef, type ReactNode } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/ledger-entry";
import { FigureList, type Figure } from "~/components/capital/figures";
import { Badge, DataTable, OneLine, RowMenu, type BadgeTone, type DataColumn } from "~/components/kit/data-table";
import { DateField } from "~/components/kit/date-field";
import { ErrorList, StatusButton } from "~/components/kit/fields";
import { useIntentForm } from "~/components/kit/intent-form";
import { MoneyField } from "~/components/kit/money-field";
import { PageSection } from "~/components/kit/page-section";
import { EnhancedForm } from "~/components/ui/enhanced-form";
import { buttonClass } from "~/components/ui/form";
import { lastPageOf, LIST_PAGE_SIZE, pageHref, Pager } from "~/components/ui/pager";
import { fundsCopy, ledgerLineLabels } from "~/content/capital";
import { ledgerPagesCopy as c } from "~/content/ledger-pages";
import { ADMIN_PATHS, ledgerEntryPath } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { formatDecimal, formatMoney, parseAmount, toDecimalString } from "~/modules/capital/money";
import { now } from "~/modules/config/clock.server";
import { adminDate } from "~/modules/dates/format";
import { fundBySlug } from "~/modules/funds/funds.server";
import { isAppError } from "~/modules/http/app-error";
import { readFormData } from "~/modules/http/form-data.server";
import { notFound } from "~/modules/http/not-found";
import { callBalances, paymentState, readEntry, type LedgerEntryRead } from "~/modules/ledger/ledger.server";
import { businessDaysBetween, firmDay } from "~/modules/pitch-clock/clock.server";
import { pageMeta } from "~/modules/seo/meta";
import { answerLedgerEntryIntent, type LedgerEntryAnswer } from "./ledger-actions.server";

const ID = /^[\w-]{1,100}$/;
const day = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));
const linkClass = "font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300";

function entryOf(id: string): LedgerEntryRead {
  try {
    if (ID.test(id)) return readEntry(id);
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
  }
  throw notFound({ title: c.notFound.title, message: c.notFound.message, back: { to: ADMIN_PATHS.funds, label: fundsCopy.detail.back } });
}

const stateTones: Record<string, BadgeTone> = { paid: "success", partly_paid: "info", due: "neutral", overdue: "danger" };

/**
 * /admin/ledger/{id} (issue 24 §4–5, §9), one page for a call and a
 * distribution: a draft's preview (its lines and every entity's share, the
 * short-notice warning; publish, change or delete it), a published call's
 * payments per entity (due, received, outstanding, state; record a payment in
 * the row's menu), a published distribution's allocation; a published entry
 * is corrected by a new one. The entities' table pages by 50.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const entry = entryOf(params.id);
  const fund = fundBySlug(entry.fund as "fund-i");
  const currency = entry.currency;
  const money = (amount: string) => formatDecimal(amount, currency);
  const minor = (amount: string) => {
    const parsed = parseAmount(amount, currency);
    return parsed.ok ? parsed.minor : 0n;
  };
  const published = entry.status === "published";
  const call = entry.kind === "call";
  const today = firmDay(now());

  const asked = Math.max(1, Math.floor(Number(new URL(request.url).searchParams.get("page")) || 1));
  const page = Math.min(asked, lastPageOf(entry.allocations.length));
  const shown = entry.allocations.slice((page - 1) * LIST_PAGE_SIZE, page * LIST_PAGE_SIZE);

  const dates = call
    ? [
        { label: c.entry.noticeDate, value: day(entry.noticeDate!) },
        { label: c.entry.dueDate, value: day(entry.dueDate!) },
      ]
    : [{ label: c.entry.paymentDate, value: day(entry.paymentDate!) }];
  let corrects: { id: string; reference: string } | null = null;
  if (entry.correctionOf) {
    const target = readEntry(entry.correctionOf);
    corrects = { id: target.id, reference: target.reference ?? c.entry.draftTitle[target.kind] };
  }
  const lines = entry.lines.map((line, index) => ({
    key: String(index),
    label: ledgerLineLabels[line.type] ?? line.type,
    description: line.description ?? null,
    amount: money(line.amount),
    recallable: line.recallable === true,
  }));
  const recallable = entry.lines.filter((l) => l.recallable).reduce((sum, l) => sum + minor(l.amount), 0n);

  let figures: Figure[];
  let payments: {
    entityId: string;
    name: string;
    due: string;
    received: string;
    outstanding: string;
    outstandingDecimal: string;
    state: string;
    stateLabel: string;
    tone: BadgeTone;
  }[] = [];
  if (call && published) {
    const balances = new Map(callBalances(entry.id).map((b) => [b.entityId, b]));
    const zero = { due: 0n, received: 0n, outstanding: 0n };
    let received = 0n;
    let outstanding = 0n;
    let paidInFull = 0;
    for (const a of entry.allocations) {
      const b = balances.get(a.entityId) ?? zero;
      received += b.received;
      outstanding += b.outstanding;
      if (b.outstanding <= 0n) paidInFull++;
    }
    figures = [
      { label: c.entry.figures.totalCalled, value: money(entry.total), testId: "entry-total" },
      { label: c.entry.figures.received, value: formatMoney(received, currency), testId: "entry-received" },
      { label: c.entry.figures.outstanding, value: formatMoney(outstanding, currency), testId: "entry-outstanding" },
      { label: c.entry.figures.paidInFull, value: c.entry.figures.paidInFullValue(paidInFull, entry.allocations.length), testId: "entry-paid-in-full" },
    ];
    payments = shown.map((a) => {
      const b = balances.get(a.entityId) ?? zero;
      const state = paymentState(b, entry.dueDate!, today);
      return {
        entityId: a.entityId,
        name: a.entityName,
        due: formatMoney(b.due, currency),
        received: formatMoney(b.received, currency),
        outstanding: formatMoney(b.outstanding, currency),
        outstandingDecimal: b.outstanding > 0n ? toDecimalString(b.outstanding, currency) : "",
        state,
        stateLabel: c.entry.states[state] ?? state,
        tone: stateTones[state] ?? "neutral",
      };
    });
  } else {
    figures = [
      { label: call ? c.entry.figures.totalCalled : c.entry.figures.totalDistributed, value: money(entry.total), testId: "entry-total" },
      { label: c.entry.figures.entities, value: entry.allocations.length.toLocaleString("en-US"), testId: "entry-entities" },
      { label: c.entry.figures.lines, value: entry.lines.length.toLocaleString("en-US") },
      ...(call ? [] : [{ label: c.entry.figures.recallable, value: formatMoney(recallable, currency) }]),
    ];
  }
  return {
    id: entry.id,
    kind: entry.kind,
    published,
    title: entry.reference ?? c.entry.draftTitle[entry.kind],
    fund: { slug: fund.slug, name: fund.name, currency },
    dates,
    corrects,
    shortNotice: call && entry.warnings.includes("short_notice") ? c.entry.shortNotice(businessDaysBetween(entry.noticeDate!, entry.dueDate!)) : null,
    figures,
    lines,
    allocationIntro: published ? c.entry.allocationPublished(day(entry.date)) : c.entry.allocationDraft(day(entry.date)),
    allocation: shown.map((a) => ({ entityId: a.entityId, name: a.entityName, shares: a.lines.map((l) => money(l.amount)), total: money(a.amount) })),
    payments,
    dueDate: entry.dueDate ? day(entry.dueDate) : null,
    // A payment is dated today (Zurich), or the notice date when the call is noticed later.
    paymentDay: call && today < entry.date ? entry.date : today,
    noticeDay: entry.date,
    page,
    entityCount: entry.allocations.length,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const entry = entryOf(params.id);
  return answerLedgerEntryIntent(admin, entry, await readFormData(request));
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.data ? `${args.data.title} · ${args.data.fund.name}` : c.notFound.title,
    description: c.meta.description,
    path: ledgerEntryPath(args.params.id),
    noindex: true,
  });

type Loaded = Route.ComponentProps["loaderData"];
type PaymentRow = Loaded["payments"][number];

/** A header action that asks first, without a script: a disclosure whose panel holds the explanation and the button that does it. */
function ConfirmAction({ summary, icon, variant, open, children, testId }: { summary: string; icon: ReactNode; variant: "primary" | "danger"; open: boolean; children: ReactNode; testId: string }) {
  return (
    <details data-testid={testId} className="group/confirm relative max-sm:w-full" open={open || undefined}>
      <summary className={buttonClass(variant, "w-full cursor-pointer list-none [&::-webkit-details-marker]:hidden")}>
        {icon}
        {summary}
        <ChevronDown aria-hidden="true" className="size-4 transition-transform group-open/confirm:rotate-180" />
      </summary>
      <div className="z-20 mt-2 w-full space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-lg sm:absolute sm:right-0 sm:w-80 dark:border-slate-700 dark:bg-slate-900">
        {children}
      </div>
    </details>
  );
}

function PublishAction({ action, kind, entities }: { action: string; kind: Loaded["kind"]; entities: number }) {
  const { fetcher, errors, busy } = useIntentForm<LedgerEntryAnswer>("publish");
  return (
    <ConfirmAction testId="publish-action" summary={c.entry.publish} icon={<Send aria-hidden="true" className="size-4" />} variant="primary" open={Boolean(errors)}>
      <EnhancedForm fetcher={fetcher} action={action} className="space-y-3">
        <input type="hidden" name="intent" value="publish" />
        <p className="text-slate-700 dark:text-slate-200">{c.entry.publishConfirm(kind, entities)}</p>
        <StatusButton pending={busy} pendingLabel={c.entry.publishPending} className="w-full">
          {c.entry.publishNow}
        </StatusButton>
        <ErrorList id="publish-error" errors={errors ? Object.values(errors)[0] : undefined} />
      </EnhancedForm>
    </ConfirmAction>
  );
}

function DeleteAction({ action }: { action: string }) {
  const { fetcher, errors, busy } = useIntentForm<LedgerEntryAnswer>("delete-draft");
  return (
    <ConfirmAction testId="delete-action" summary={c.entry.deleteDraft} icon={<Trash2 aria-hidden="true" className="size-4" />} variant="danger" open={Boolean(errors)}>
      <EnhancedForm fetcher={fetcher} action={action} className="space-y-3">
        <input type="hidden" name="intent" value="delete-draft" />
        <p className="text-slate-700 dark:text-slate-200">{c.entry.deleteConfirm}</p>
        <StatusButton variant="danger" pending={busy} pendingLabel={c.entry.deletePending} className="w-full">
          {c.entry.deleteNow}
        </StatusButton>
        <ErrorList id="delete-error" errors={errors ? Object.values(errors)[0] : undefined} />
      </EnhancedForm>
    </ConfirmAction>
  );
}

function RecordPayment({ row, action, currency, paymentDay, noticeDay }: { row: PaymentRow; action: string; currency: string; paymentDay: string; noticeDay: string }) {
  const { fetcher, errors, typed, busy } = useIntentForm<LedgerEntryAnswer>("record-payment", row.entityId);
  const form = useRef<HTMLFormElement>(null);
  // A payment recorded: the menu closes (the row shows what is still due).
  useEffect(() => {
    if (fetcher.data?.status === "success") form.current?.closest("details")?.removeAttribute("open");
  }, [fetcher.data]);
  const id = `payment-${row.entityId}`;
  const other = errors && !errors.amount && !errors.receivedOn ? Object.values(errors)[0] : undefined;
  return (
    <RowMenu name={row.name} open={errors ? true : undefined}>
      <EnhancedForm ref={form} fetcher={fetcher} action={action} className="space-y-3 p-1">
        <input type="hidden" name="intent" value="record-payment" />
        <input type="hidden" name="entityId" value={row.entityId} />
        <p className="text-sm font-semibold">{c.entry.recordPayment}</p>
        <MoneyField
          id={`${id}-amount`}
          name="amount"
          currency={currency}
          label={c.entry.amountReceived}
          hint={c.entry.amountReceivedHint(row.outstanding)}
          errors={errors?.amount}
          required
          defaultValue={typed?.amount ?? row.outstandingDecimal}
        />
        <DateField id={`${id}-date`} name="receivedOn" label={c.entry.receivedOn} errors={errors?.receivedOn} required min={noticeDay} defaultValue={typed?.receivedOn ?? paymentDay} inputClassName="sm:max-w-none" />
        <StatusButton pending={busy} pendingLabel={c.entry.recordPending} className="w-full">
          {c.entry.recordSubmit}
        </StatusButton>
        <ErrorList id={`${id}-error`} errors={other} />
      </EnhancedForm>
    </RowMenu>
  );
}

const entityLink = (entityId: string, name: string) => (
  <Link to={`${ADMIN_PATHS.entities}/${entityId}`} className={linkClass}>
    <OneLine title={name}>{name}</OneLine>
  </Link>
);

export default function LedgerEntryPage({ loaderData }: Route.ComponentProps) {
  const { id, kind, published, title, fund, dates, corrects, shortNotice, figures, lines, allocationIntro, allocation, payments, dueDate, paymentDay, noticeDay, page, entityCount } = loaderData;
  const action = ledgerEntryPath(id);
  const fundPath = `${ADMIN_PATHS.funds}/${fund.slug}`;
  const call = kind === "call";
  const paymentsShown = call && published;
  const lineColumns: DataColumn<Loaded["lines"][number]>[] = [
    { key: "type", header: c.entry.lineColumns.type, rowHeader: true, card: "primary", cell: (l) => l.label },
    { key: "description", header: c.entry.lineColumns.description, cell: (l) => (l.description ? <OneLine title={l.description}>{l.description}</OneLine> : "—") },
    ...(call ? [] : [{ key: "recallable", header: c.entry.lineColumns.recallable, width: "w-28", cell: (l: Loaded["lines"][number]) => (l.recallable ? c.entry.recallableYes : c.entry.recallableNo) }]),
    { key: "amount", header: c.entry.lineColumns.amount, width: "w-44", align: "end", className: "tabular-nums", cell: (l) => l.amount },
  ];
  const allocationColumns: DataColumn<Loaded["allocation"][number]>[] = [
    { key: "entity", header: c.entry.allocationColumns.entity, rowHeader: true, card: "primary", width: lines.length > 3 ? "w-56" : undefined, cell: (a) => entityLink(a.entityId, a.name) },
    ...lines.map(
      (line, index): DataColumn<Loaded["allocation"][number]> => ({
        key: `line-${index}`,
        header: lines.filter((l) => l.label === line.label).length > 1 ? c.entry.lineColumn(line.label, index + 1) : line.label,
        align: "end",
        className: "tabular-nums",
        cell: (a) => a.shares[index] ?? "—",
      }),
    ),
    { key: "total", header: c.entry.allocationColumns.total, align: "end", className: "tabular-nums font-semibold", cell: (a) => a.total },
  ];
  const paymentColumns: DataColumn<PaymentRow>[] = [
    { key: "entity", header: c.entry.paymentColumns.entity, rowHeader: true, card: "primary", cell: (p) => entityLink(p.entityId, p.name) },
    { key: "state", header: c.entry.paymentColumns.state, width: "w-32", card: "badge", cell: (p) => <Badge tone={p.tone}>{p.stateLabel}</Badge> },
    { key: "due", header: c.entry.paymentColumns.due, width: "w-40", align: "end", className: "tabular-nums", cell: (p) => p.due },
    { key: "received", header: c.entry.paymentColumns.received, width: "w-40", align: "end", className: "tabular-nums", cell: (p) => p.received },
    { key: "outstanding", header: c.entry.paymentColumns.outstanding, width: "w-40", align: "end", className: "tabular-nums", cell: (p) => p.outstanding },
    {
      key: "actions",
      header: c.entry.paymentColumns.actions,
      headerHidden: true,
      width: "w-16",
      card: "actions",
      cell: (p) => (p.outstandingDecimal ? <RecordPayment row={p} action={action} currency={fund.currency} paymentDay={paymentDay} noticeDay={noticeDay} /> : null),
    },
  ];
  const pager = (anchor: string) => (
    <Pager label={anchor === "payments" ? c.entry.payments : c.entry.allocation} page={page} total={entityCount} shown={allocation.length} hrefFor={(p) => pageHref({ pathname: action, search: "", param: "page", page: p, anchor })} />
  );
  return (
    <>
      <BackLink to={fundPath}>{fund.name}</BackLink>
      <div className="mt-3 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-600 dark:text-slate-300">
            {c.kinds[kind]} · {fund.name}
          </p>
          <div className="mt-1 flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
            <span data-testid="entry-status">
              <Badge tone={published ? "success" : "warning"}>{published ? c.entry.publishedBadge : c.entry.draftBadge}</Badge>
            </span>
          </div>
          <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600 dark:text-slate-300">
            {dates.map((d) => (
              <div key={d.label} className="flex gap-1.5">
                <dt>{d.label}:</dt>
                <dd className="font-medium text-slate-900 dark:text-white">{d.value}</dd>
              </div>
            ))}
            {corrects ? (
              <div className="flex gap-1.5">
                <dt>{c.entry.corrects}:</dt>
                <dd>
                  <Link to={ledgerEntryPath(corrects.id)} className={linkClass}>
                    {corrects.reference}
                  </Link>
                </dd>
              </div>
            ) : null}
          </dl>
        </div>
        <div className="flex flex-col gap-2 sm:shrink-0 sm:flex-row sm:items-start">
          {published ? (
            <Link to={`${fundPath}/${call ? "calls" : "distributions"}/new?correctionOf=${id}`} className={buttonClass("secondary")} title={c.entry.correctHint}>
              <Pencil aria-hidden="true" className="size-4" />
              {c.entry.correct[kind]}
            </Link>
          ) : (
            <>
              <Link to={`${action}/change`} className={buttonClass("secondary")}>
                <Pencil aria-hidden="true" className="size-4" />
                {c.entry.change}
              </Link>
              <DeleteAction action={action} />
              <PublishAction action={action} kind={kind} entities={entityCount} />
            </>
          )}
        </div>
      </div>
      {shortNotice ? (
        <div role="note" data-testid="short-notice" className="mt-5 flex max-w-3xl items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <p>
            <strong className="font-semibold">{c.entry.shortNoticeTitle}.</strong> {shortNotice}
          </p>
        </div>
      ) : null}
      {published ? null : (
        <p className="mt-5 flex max-w-3xl items-start gap-3 text-sm text-slate-600 dark:text-slate-300">
          <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{c.entry.draftNote[kind]}</span>
        </p>
      )}
      <FigureList figures={figures} className="mt-5" />
      {paymentsShown ? (
        <PageSection id="payments" title={c.entry.payments} intro={dueDate ? c.entry.paymentsIntro(dueDate) : undefined}>
          <DataTable label={c.entry.payments} rows={payments} rowKey={(p) => p.entityId} rowTestId="payment-row" columns={paymentColumns} emptyRow={c.entry.noShares} />
          {pager("payments")}
        </PageSection>
      ) : (
        <PageSection id="allocation" title={c.entry.allocation} intro={allocationIntro}>
          <DataTable label={c.entry.allocation} rows={allocation} rowKey={(a) => a.entityId} rowTestId="allocation-row" columns={allocationColumns} emptyRow={c.entry.noShares} />
          {pager("allocation")}
        </PageSection>
      )}
      <PageSection id="lines" title={c.entry.lines}>
        <DataTable label={c.entry.lines} rows={lines} rowKey={(l) => l.key} rowTestId="line-row" columns={lineColumns} />
      </PageSection>
    </>
  );
}

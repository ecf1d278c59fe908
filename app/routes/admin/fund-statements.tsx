import { RefreshCw, RotateCcw, Send } from "lucide-react";
import { useEffect } from "react";
import { Link, useRevalidator, type FetcherWithComponents } from "react-router";
import type { Route } from "./+types/fund-statements";
import { FigureList } from "~/components/capital/figures";
import { BackLink } from "~/components/kit/back-link";
import { CsvFormat } from "~/components/kit/csv-format";
import { CsvUploadForm, ImportConfirm, ImportLayout, useImportForms } from "~/components/kit/csv-import";
import { Badge, DataTable, RowMenu, type BadgeTone, type DataColumn } from "~/components/kit/data-table";
import { CheckboxField, ErrorList, FileField, StatusButton } from "~/components/kit/fields";
import { ImportPreview } from "~/components/kit/import-preview";
import { useIntentForm } from "~/components/kit/intent-form";
import { PageSection } from "~/components/kit/page-section";
import { EnhancedForm } from "~/components/ui/enhanced-form";
import { useHydrated } from "~/components/ui/use-hydrated";
import { fundStatementsCopy as c } from "~/content/statements";
import { requireAdmin } from "~/modules/auth/guards.server";
import { readSetting } from "~/modules/firm-settings/settings.server";
import { pageMeta } from "~/modules/seo/meta";
import { quarterEnd } from "~/modules/statements/quarter";
import { fundQuarters, type FundQuarter } from "~/modules/statements/reads.server";
import { adminDate } from "~/modules/dates/format";
import { fundOfPage } from "./fund-operations.server";
import { STATEMENTS_FILE_BYTES, STATEMENTS_IMPORT_INTENT, statementsPagePath, WATERMARK_INTENT } from "~/components/statements/intents";
import { answerFundStatementsIntent, type FundStatementsAnswer } from "./fund-statements.server";

const MB = STATEMENTS_FILE_BYTES / 1024 / 1024;
/** While a PDF job runs, the page (with JavaScript) reads its progress again this often. */
const POLL_MS = 2000;
const day = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));

type Fetcher = FetcherWithComponents<FundStatementsAnswer>;

function statusOf(q: FundQuarter): { label: string; tone: BadgeTone; hint: string | null } {
  const latest = q.versions[0];
  if (!latest) return { label: c.quarters.status.none, tone: "neutral", hint: null };
  if (latest.status === "reopened") return { label: c.quarters.status.reopened, tone: "warning", hint: c.quarters.statusHint.reopened(latest.version) };
  return { label: c.quarters.status.published(latest.version), tone: latest.version > 1 ? "info" : "success", hint: c.quarters.statusHint.published(adminDate(latest.publishedAt)) };
}

function pdfsOf(job: FundQuarter["job"]): { text: string; share: number | null; failed: boolean } {
  if (!job) return { text: c.quarters.pdfs.none, share: null, failed: false };
  const text = job.status === "running" ? c.quarters.pdfs.running(job.done, job.total, job.failed) : c.quarters.pdfs.finished(job.done, job.total, job.failed);
  return { text, share: job.total ? Math.min(1, (job.done + job.failed) / job.total) : 1, failed: job.failed > 0 };
}

/**
 * /admin/funds/{slug}/statements (issue 25 §1–2): the fund's quarters (P&L
 * rows, published versions, the PDF job's progress; publish and restate in a
 * row's menu, each after a confirm step), the P&L import (a file, its
 * preview with every entity's tie-out, then the import of the previewed text),
 * and the firm's watermark setting. Forms: fund-statements.server.ts. While
 * PDFs are being made the page follows them (every 2 s with JavaScript; a
 * Refresh link without).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const fund = fundOfPage(params.slug);
  const quarters = fundQuarters(fund).map((q) => {
    const latest = q.versions[0] ?? null;
    return {
      quarter: q.quarter,
      pnlRows: q.pnlRows.toLocaleString("en-US"),
      status: statusOf(q),
      pdfs: pdfsOf(q.job),
      running: q.job?.status === "running",
      // The next version and how many statements it makes (the P&L's entities; a published version's count).
      nextVersion: (latest?.version ?? 0) + 1,
      entities: q.pnlRows,
      publishedVersion: latest?.status === "published" ? latest.version : null,
      canPublish: q.canPublish,
      canRestate: q.canRestate,
      // Not over yet (Zurich): publishable from the day after its end.
      waitsUntil: !q.canPublish && !q.canRestate && latest?.status !== "published" && q.pnlRows > 0 ? day(quarterEnd(q.quarter)) : null,
    };
  });
  return { fund: { slug: fund.slug, name: fund.name, currency: fund.currency }, quarters, running: quarters.some((q) => q.running), watermark: readSetting("statements_watermark") };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const fund = fundOfPage(params.slug);
  const imported = new Set(
    fundQuarters(fund)
      .filter((q) => q.pnlRows > 0)
      .map((q) => q.quarter),
  );
  return answerFundStatementsIntent(admin, fund, request, imported);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: `${c.title}: ${args.data?.fund.name ?? ""}`, description: c.intro(args.data?.fund.name ?? ""), path: `/admin/funds/${args.params.slug}/statements`, noindex: true });

type Loaded = Route.ComponentProps["loaderData"];
type QuarterRow = Loaded["quarters"][number];

/** One confirm step of a quarter's menu (a disclosure in the menu: it opens without a script). */
function QuarterAction({
  row,
  intent,
  action,
  summary,
  confirm,
  submit,
  pending,
  danger,
}: {
  row: QuarterRow;
  intent: "publish-quarter" | "restate-quarter";
  action: string;
  summary: string;
  confirm: string;
  submit: string;
  pending: string;
  danger?: boolean;
}) {
  const { fetcher, errors, busy } = useIntentForm<FundStatementsAnswer>(intent, row.quarter);
  const Icon = intent === "publish-quarter" ? Send : RotateCcw;
  return (
    <details open={errors ? true : undefined} data-testid={`${intent}-action`}>
      <summary className="row-menu-item cursor-pointer list-none items-center gap-2 [&::-webkit-details-marker]:hidden" data-danger={danger || undefined}>
        <Icon aria-hidden="true" className="size-4" />
        {summary}
      </summary>
      <EnhancedForm fetcher={fetcher} action={action} className="mt-1 space-y-3 px-2 pb-1 text-sm">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="quarter" value={row.quarter} />
        <p className="text-slate-700 dark:text-slate-200">{confirm}</p>
        <StatusButton variant={danger ? "danger" : "primary"} pending={busy} pendingLabel={pending} className="w-full">
          {submit}
        </StatusButton>
        <ErrorList id={`${intent}-${row.quarter}-error`} errors={errors?.form} />
      </EnhancedForm>
    </details>
  );
}

function QuarterMenu({ row, action }: { row: QuarterRow; action: string }) {
  const publish = useIntentForm<FundStatementsAnswer>("publish-quarter", row.quarter);
  const restate = useIntentForm<FundStatementsAnswer>("restate-quarter", row.quarter);
  if (!row.canPublish && !row.canRestate) return null;
  return (
    <RowMenu name={row.quarter} open={publish.errors || restate.errors ? true : undefined}>
      {row.canPublish ? (
        <QuarterAction
          row={row}
          intent="publish-quarter"
          action={action}
          summary={row.nextVersion > 1 ? c.publish.restatementMenu : c.publish.menu}
          confirm={c.publish.confirm(row.quarter, row.entities, row.nextVersion)}
          submit={c.publish.submit}
          pending={c.publish.submitting}
        />
      ) : null}
      {row.canRestate && row.publishedVersion !== null ? (
        <QuarterAction
          row={row}
          intent="restate-quarter"
          action={action}
          summary={c.restate.menu}
          confirm={c.restate.confirm(row.quarter, row.publishedVersion)}
          submit={c.restate.submit}
          pending={c.restate.submitting}
          danger
        />
      ) : null}
    </RowMenu>
  );
}

function PdfProgress({ pdfs }: { pdfs: QuarterRow["pdfs"] }) {
  return (
    <span className="inline-block max-w-full align-top" data-testid="quarter-pdfs">
      <span className={`tabular-nums ${pdfs.failed ? "font-medium text-red-800 dark:text-red-200" : ""}`}>{pdfs.text}</span>
      {pdfs.share !== null && pdfs.share < 1 ? (
        <span aria-hidden="true" className="mt-1 block h-1.5 w-full max-w-40 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800">
          <span className="block h-full rounded-full bg-brand-600 transition-[width] dark:bg-brand-400" style={{ width: `${Math.round(pdfs.share * 100)}%` }} />
        </span>
      ) : null}
    </span>
  );
}

/** While a job runs: with JavaScript the loader is read again every 2 s (until every job has finished). */
function useFollowJobs(running: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!running || revalidator.state !== "idle") return;
    const timer = setTimeout(() => void revalidator.revalidate(), POLL_MS);
    return () => clearTimeout(timer);
  }, [running, revalidator]);
}

function Quarters({ quarters, running, action }: { quarters: Loaded["quarters"]; running: boolean; action: string }) {
  const hydrated = useHydrated();
  useFollowJobs(running);
  const columns: DataColumn<QuarterRow>[] = [
    { key: "quarter", header: c.quarters.columns.quarter, rowHeader: true, card: "primary", width: "w-28", className: "font-semibold tabular-nums", cell: (q) => q.quarter },
    {
      key: "status",
      header: c.quarters.columns.status,
      width: "w-56",
      // On a phone a labelled line under the quarter (a long status would push the row's menu off its line).
      cell: (q) => (
        <>
          <span data-testid="quarter-status">
            <Badge tone={q.status.tone}>{q.status.label}</Badge>
          </span>
          {q.status.hint ? <span className="mt-1 block text-xs text-slate-600 dark:text-slate-300">{q.status.hint}</span> : null}
          {q.waitsUntil ? <span className="mt-1 block text-xs text-slate-600 dark:text-slate-300">{c.quarters.waitsUntil(q.waitsUntil)}</span> : null}
        </>
      ),
    },
    { key: "pnl", header: c.quarters.columns.pnl, width: "w-28", className: "tabular-nums", cell: (q) => q.pnlRows },
    { key: "pdfs", header: c.quarters.columns.pdfs, cell: (q) => <PdfProgress pdfs={q.pdfs} /> },
    { key: "actions", header: c.quarters.columns.actions, headerHidden: true, width: "w-16", card: "actions", cell: (q) => <QuarterMenu row={q} action={action} /> },
  ];
  return (
    <PageSection
      id="quarters"
      title={c.quarters.title}
      intro={c.quarters.intro}
      actions={
        running && !hydrated ? (
          // No fragment: a link to this page with one would only scroll, not read it again.
          <Link to={action} className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300" data-testid="quarters-refresh">
            <RefreshCw aria-hidden="true" className="size-4" />
            {c.quarters.refresh}
          </Link>
        ) : null
      }
    >
      {running ? (
        <p role="status" className="mb-1 text-sm text-slate-600 dark:text-slate-300">
          {hydrated ? c.quarters.liveHint : c.quarters.refreshHint}
        </p>
      ) : null}
      {quarters.length ? (
        <DataTable label={c.quarters.table} rows={quarters} rowKey={(q) => q.quarter} rowTestId="quarter-row" columns={columns} />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="quarters-empty">
          {c.quarters.empty}
        </p>
      )}
    </PageSection>
  );
}

function UploadForm({ action, answer, busy, fetcher }: { action: string; answer: FundStatementsAnswer | undefined; busy: boolean; fetcher: Fetcher }) {
  return (
    <CsvUploadForm
      fetcher={fetcher}
      action={action}
      intent={STATEMENTS_IMPORT_INTENT}
      titleId="import-title"
      copy={c.import}
      limitBytes={STATEMENTS_FILE_BYTES}
      busy={busy}
    >
      {({ tooLarge, pick }) => (
        <FileField
          id="pnl-file"
          name="file"
          className="mt-4"
          label={c.import.file}
          hint={c.import.hint(MB)}
          errors={tooLarge ? [c.import.tooLarge(MB)] : answer?.fields?.file}
          accept=".csv,text/csv"
          required
          onChange={pick}
        />
      )}
    </CsvUploadForm>
  );
}

function FileFormat({ fund }: { fund: string }) {
  return (
    <CsvFormat title={c.import.formatTitle} columns={c.import.format} exampleTitle={c.import.exampleTitle} example={c.import.example(fund)}>
      <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{c.import.amountsNote}</p>
    </CsvFormat>
  );
}

type PreviewRow = NonNullable<FundStatementsAnswer["preview"]>["rows"][number];

const previewColumns: DataColumn<PreviewRow>[] = [
  // What the file says is shown as typed where it did not resolve, in italics.
  { key: "entity", header: c.preview.columns.entity, rowHeader: true, card: "primary", className: "break-words", cell: (row) => (row.resolved ? row.entity : <i>{row.entity || "—"}</i>) },
  { key: "expected", header: c.preview.columns.expected, width: "w-36", align: "end", className: "tabular-nums break-words", cell: (row) => row.expected },
  { key: "actual", header: c.preview.columns.actual, width: "w-36", align: "end", className: "tabular-nums break-words", cell: (row) => row.actual },
  {
    key: "difference",
    header: c.preview.columns.difference,
    width: "w-32",
    align: "end",
    className: "tabular-nums break-words",
    cell: (row) => <span className={row.ties || row.difference === "—" ? undefined : "font-semibold text-red-800 dark:text-red-200"}>{row.difference}</span>,
  },
];

function Preview({ answer, action, busy, fetcher }: { answer: FundStatementsAnswer; action: string; busy: boolean; fetcher: Fetcher }) {
  const preview = answer.preview!;
  const confirmable = answer.csv !== undefined && preview.withErrors === 0 && preview.quarter !== null;
  return (
    <PageSection id="preview" title={c.preview.title(answer.fileName ?? "")} intro={c.preview.tieExplained}>
      {preview.figures.length ? <FigureList figures={preview.figures} className="mb-4" /> : null}
      <ImportPreview label={c.preview.caption} rows={preview.rows} columns={previewColumns} />
      {preview.moreErrors ? <p className="mt-2 text-sm font-medium text-red-800 dark:text-red-200">{c.preview.moreErrors(preview.moreErrors)}</p> : null}
      <ImportConfirm
        fetcher={fetcher}
        action={action}
        intent={STATEMENTS_IMPORT_INTENT}
        copy={c.preview}
        label={c.preview.confirm(preview.quarter!, preview.ready)}
        busy={busy}
        fields={confirmable ? { expected: preview.ready, fileName: answer.fileName ?? "", csv: answer.csv! } : null}
        multipart
        refusedTestId="preview-refused"
        errors={answer.fields?.form}
      >
        <p className="text-sm text-slate-700 dark:text-slate-200">
          <span className="font-medium">{c.preview.nothingSaved}</span> {preview.replaces ? c.preview.replaces(preview.quarter!) : null}
        </p>
      </ImportConfirm>
    </PageSection>
  );
}

function WatermarkForm({ action, on }: { action: string; on: boolean }) {
  const { fetcher, errors, busy } = useIntentForm<FundStatementsAnswer>(WATERMARK_INTENT);
  return (
    <section id="watermark" aria-labelledby="watermark-title" className="mt-8 rounded-xl border border-slate-200 p-5 dark:border-slate-800">
      <h2 id="watermark-title" className="text-lg font-semibold">
        {c.watermark.title}
      </h2>
      <EnhancedForm fetcher={fetcher} action={action} className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <input type="hidden" name="intent" value={WATERMARK_INTENT} />
        {/* Keyed on the saved value, so the box shows it again after each save. */}
        <CheckboxField key={String(on)} id="statements-watermark" name="watermark" label={c.watermark.label} hint={c.watermark.intro} defaultChecked={on} />
        <StatusButton variant="secondary" className="shrink-0" pending={busy} pendingLabel={c.watermark.submitting}>
          {c.watermark.submit}
        </StatusButton>
      </EnhancedForm>
      <ErrorList id="watermark-error" errors={errors?.form} />
    </section>
  );
}

export default function FundStatements({ loaderData }: Route.ComponentProps) {
  const { fund, quarters, running, watermark } = loaderData;
  const action = statementsPagePath(fund);
  const { fetcher, answer, previewing, confirming } = useImportForms<FundStatementsAnswer>(STATEMENTS_IMPORT_INTENT);
  // A confirmed import leaves no preview (the quarters above show it).
  const shown = answer?.preview && !(answer.step === "confirm" && answer.status === "success") ? answer : undefined;
  return (
    <>
      <BackLink to={`/admin/funds/${fund.slug}`}>{c.back(fund.name)}</BackLink>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{c.title}</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{c.intro(fund.name)}</p>
      <Quarters quarters={quarters} running={running} action={action} />
      <ImportLayout
        className="mt-8"
        form={<UploadForm action={action} answer={answer?.status === "error" && !answer.preview ? answer : undefined} busy={previewing} fetcher={fetcher} />}
        format={<FileFormat fund={fund.slug} />}
        preview={shown ? <Preview answer={shown} action={action} busy={confirming} fetcher={fetcher} /> : null}
      />
      {answer?.step === "confirm" && answer.status === "error" && !answer.preview ? <ErrorList id="import-error" errors={answer.fields?.form} /> : null}
      <WatermarkForm action={action} on={watermark} />
    </>
  );
}

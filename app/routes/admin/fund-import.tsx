import { CircleAlert, CircleCheck, MailX, TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import type { FetcherWithComponents } from "react-router";
import type { Route } from "./+types/fund-import";
import { BackLink } from "~/components/kit/back-link";
import { CsvFormat } from "~/components/kit/csv-format";
import { CsvUploadForm, ImportConfirm, ImportLayout, useImportForms } from "~/components/kit/csv-import";
import { DataTable, type DataColumn } from "~/components/kit/data-table";
import { ErrorList, FileField } from "~/components/kit/fields";
import { PageSection } from "~/components/kit/page-section";
import { historyImportCopy as c, historyImportMessages } from "~/content/history-import";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { HISTORY_FILES_BYTES, HISTORY_INTENT, MAX_HISTORY_PNL_ROWS, MAX_HISTORY_ROWS } from "~/modules/history-import/constants";
import { pageMeta } from "~/modules/seo/meta";
import { answerHistoryIntent, type HistoryAnswer, type HistoryPreviewView } from "./fund-import.server";
import { fundOfPage } from "./fund-operations.server";

const MB = HISTORY_FILES_BYTES / 1024 / 1024;
type Fetcher = FetcherWithComponents<HistoryAnswer>;

/**
 * /admin/funds/{slug}/import (issue 25 §5): a fund's history — past calls,
 * payments, distributions and valuations, and optionally the quarters' P&L —
 * from CSV files. The upload answers with the preview (per event what would
 * be saved, every error by line and column, the valuations it replaces, the
 * numbers the calls and distributions get; nothing written); the confirm
 * names the stored files and the import checks everything again before
 * writing it all or nothing (modules/history-import/). Both forms are plain
 * posts without JavaScript (the page renders the answer) and a fetcher's with it.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const fund = fundOfPage(params.slug);
  return { fund: { slug: fund.slug, name: fund.name, currency: fund.currency } };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const fund = fundOfPage(params.slug);
  return answerHistoryIntent(admin, fund, request);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: c.title, description: c.intro(args.data?.fund.name ?? ""), path: `${ADMIN_PATHS.funds}/${args.params.slug}/import`, noindex: true });

type KindRow = HistoryPreviewView["kinds"][number];
type ErrorRow = HistoryPreviewView["errors"][number];
type ReplacementRow = HistoryPreviewView["replacements"][number];
type EntryRow = HistoryPreviewView["entries"][number];
const cols = c.preview.columns;

const kindColumns: DataColumn<KindRow>[] = [
  { key: "event", header: cols.event, rowHeader: true, card: "primary", width: "w-36", cell: (row) => <span className="font-medium">{row.event}</span> },
  { key: "rows", header: cols.rows, width: "w-28", align: "end", className: "tabular-nums", cell: (row) => row.rows },
  { key: "saves", header: cols.saves, cell: (row) => row.saves },
  { key: "total", header: cols.total, width: "w-44", align: "end", className: "tabular-nums break-words", cell: (row) => row.total },
];

const errorColumns: DataColumn<ErrorRow>[] = [
  {
    key: "line",
    header: c.preview.errorColumns.line,
    rowHeader: true,
    card: "primary",
    width: "w-32",
    className: "tabular-nums",
    cell: (row) => (
      <>
        <span className="font-medium">{row.line}</span> <span className="text-xs text-slate-600 dark:text-slate-300">{row.file}</span>
      </>
    ),
  },
  { key: "column", header: c.preview.errorColumns.column, width: "w-36", card: "meta", cell: (row) => <code className="font-mono text-xs">{row.column}</code> },
  {
    key: "message",
    header: c.preview.errorColumns.message,
    className: "whitespace-normal",
    cell: (row) => (
      <span className="flex items-start gap-1.5 font-medium text-red-800 dark:text-red-200">
        <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span className="[overflow-wrap:anywhere]">{row.message}</span>
      </span>
    ),
  },
];

const replacementColumns: DataColumn<ReplacementRow>[] = [
  { key: "entity", header: c.preview.replacementColumns.entity, rowHeader: true, card: "primary", className: "break-words", cell: (row) => row.entity },
  { key: "date", header: c.preview.replacementColumns.date, width: "w-32", card: "meta", cell: (row) => row.date },
  { key: "current", header: c.preview.replacementColumns.current, width: "w-40", align: "end", className: "tabular-nums", cell: (row) => row.current },
  { key: "imported", header: c.preview.replacementColumns.imported, width: "w-40", align: "end", className: "tabular-nums font-medium", cell: (row) => row.imported },
];

const entryColumns: DataColumn<EntryRow>[] = [
  { key: "becomes", header: c.preview.entryColumns.becomes, rowHeader: true, card: "primary", width: "w-36", cell: (row) => <span className="font-medium">{row.becomes}</span> },
  { key: "reference", header: c.preview.entryColumns.reference, className: "break-words", cell: (row) => row.reference },
  { key: "date", header: c.preview.entryColumns.date, width: "w-32", card: "meta", cell: (row) => row.date },
  { key: "due", header: c.preview.entryColumns.due, width: "w-32", cell: (row) => row.due },
  { key: "entities", header: c.preview.entryColumns.entities, width: "w-24", align: "end", className: "tabular-nums", cell: (row) => row.entities },
  { key: "total", header: c.preview.entryColumns.total, width: "w-44", align: "end", className: "tabular-nums break-words", cell: (row) => row.total },
];

function UploadForm({ action, answer, busy, fetcher }: { action: string; answer: HistoryAnswer | undefined; busy: boolean; fetcher: Fetcher }) {
  const errors = answer?.status === "error" ? answer.fields : undefined;
  return (
    <CsvUploadForm
      fetcher={fetcher}
      action={action}
      intent={HISTORY_INTENT}
      titleId="upload-title"
      copy={c.upload}
      limitBytes={HISTORY_FILES_BYTES}
      busy={busy}
      submitClassName="mt-5"
      // A confirm that could not be read (an expired preview) says so here, with nothing else to show.
      footer={answer?.preview ? null : <ErrorList id="import-error" errors={errors?.form} className="mt-3" />}
    >
      {({ tooLarge, pick }) => (
        <>
          <FileField
            id="history-file"
            name="history"
            className="mt-4"
            label={c.upload.history}
            hint={c.upload.historyHint(MB, MAX_HISTORY_ROWS)}
            errors={tooLarge ? [historyImportMessages.tooLarge(MB)] : errors?.history}
            accept=".csv,text/csv"
            required
            onChange={pick}
          />
          <FileField id="pnl-file" name="pnl" className="mt-4" label={c.upload.pnl} hint={c.upload.pnlHint(MAX_HISTORY_PNL_ROWS)} errors={errors?.pnl} accept=".csv,text/csv" onChange={pick} />
        </>
      )}
    </CsvUploadForm>
  );
}

/** The files' format beside the form; once a preview is shown, folded (a click opens it), so the preview follows the form. */
function FileFormat({ folded }: { folded: boolean }) {
  return (
    <CsvFormat title={c.format.title} columns={c.format.columns} exampleTitle={c.format.exampleTitle} example={c.format.example} folded={folded ? c.format.folded : undefined}>
      <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{c.format.note}</p>
      <h3 className="mt-4 text-sm font-semibold">{c.format.pnlTitle}</h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{c.format.pnlText}</p>
    </CsvFormat>
  );
}

function Preview({ answer, action, busy, fetcher }: { answer: HistoryAnswer; action: string; busy: boolean; fetcher: Fetcher }) {
  const preview = answer.preview!;
  const confirm = preview.ok ? answer.confirm : undefined;
  return (
    <PageSection id="preview" title={c.preview.title(answer.names ?? "")}>
      <p role="status" data-testid="history-summary" className="flex items-start gap-1.5 text-sm font-medium">
        {preview.withErrors ? (
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-700 dark:text-red-300" />
        ) : (
          <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700 dark:text-emerald-300" />
        )}
        <span className={preview.withErrors ? "text-red-800 dark:text-red-200" : "text-emerald-800 dark:text-emerald-200"}>{preview.summary}</span>
      </p>
      {preview.period ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{preview.period}</p> : null}

      <h3 className="mt-5 text-base font-semibold">{c.preview.whatTitle}</h3>
      <div data-testid="history-counts">
        <DataTable label={c.preview.whatCaption} columns={kindColumns} rows={preview.kinds} rowKey={(row) => row.key} rowTestId="history-kind" />
      </div>

      {preview.errors.length ? (
        <>
          <h3 className="mt-6 text-base font-semibold">{c.preview.errorsTitle}</h3>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{preview.errorsNote}</p>
          <div data-testid="history-errors">
            <DataTable label={c.preview.errorsCaption} columns={errorColumns} rows={preview.errors} rowKey={(row) => row.key} rowTestId="history-error" rowProps={() => ({ className: "bg-red-50/70 dark:bg-red-950/30" })} />
          </div>
        </>
      ) : null}

      {preview.replacements.length ? (
        <>
          <h3 className="mt-6 text-base font-semibold">{c.preview.replacementsTitle}</h3>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {c.preview.replacementsIntro} {preview.replacementsNote}
          </p>
          <div data-testid="history-replacements">
            <DataTable label={c.preview.replacementsCaption} columns={replacementColumns} rows={preview.replacements} rowKey={(row) => row.key} rowTestId="history-replacement" />
          </div>
        </>
      ) : null}

      {preview.entries.length ? (
        <details className="mt-6 group" open={preview.entries.length <= 12}>
          <summary className="cursor-pointer text-base font-semibold">{c.preview.entriesTitle}</summary>
          {preview.entriesNote ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{preview.entriesNote}</p> : null}
          <DataTable label={c.preview.entriesCaption} columns={entryColumns} rows={preview.entries} rowKey={(row) => row.key} rowTestId="history-entry" />
        </details>
      ) : null}

      <ImportConfirm
        fetcher={fetcher}
        action={action}
        intent={HISTORY_INTENT}
        copy={c.preview}
        label={c.preview.confirm}
        busy={busy}
        fields={confirm ? { upload: confirm.upload, hash: confirm.hash, signature: confirm.signature, names: answer.names ?? "" } : null}
        errors={answer.fields?.form}
      >
        <div className="text-sm text-slate-700 dark:text-slate-200">
          <p className="font-medium">{c.preview.nothingSaved}</p>
          <p className="mt-0.5 flex items-center gap-1.5 text-slate-600 dark:text-slate-300">
            <MailX aria-hidden="true" className="size-4 shrink-0" />
            {c.preview.noMail}
          </p>
        </div>
      </ImportConfirm>
    </PageSection>
  );
}

export default function FundImport({ loaderData }: Route.ComponentProps) {
  const { fund } = loaderData;
  const action = `${ADMIN_PATHS.funds}/${fund.slug}/import`;
  const { fetcher, answer, previewing, confirming } = useImportForms<HistoryAnswer>(HISTORY_INTENT);
  // A preview the fetcher brings is shown below the form: bring it into view.
  useEffect(() => {
    if (fetcher.data?.preview) document.getElementById("history-preview")?.scrollIntoView({ block: "start" });
  }, [fetcher.data]);
  return (
    <>
      <BackLink to={`${ADMIN_PATHS.funds}/${fund.slug}`}>{c.back(fund.name)}</BackLink>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{c.title}</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{c.intro(fund.name)}</p>
      <ImportLayout
        form={<UploadForm action={action} answer={answer?.status === "error" && !answer.preview ? answer : undefined} busy={previewing} fetcher={fetcher} />}
        format={<FileFormat folded={!!answer?.preview} />}
        preview={
          answer?.preview ? (
            // Clear of the sticky header when scrolled to.
            <div id="history-preview" className="scroll-mt-28">
              <Preview answer={answer} action={action} busy={confirming} fetcher={fetcher} />
            </div>
          ) : null
        }
      />
    </>
  );
}

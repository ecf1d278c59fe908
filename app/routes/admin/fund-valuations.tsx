import { TriangleAlert } from "lucide-react";
import { BackLink } from "~/components/kit/back-link";
import { useState, type ChangeEvent, type FormEvent } from "react";
import type { FetcherWithComponents } from "react-router";
import type { Route } from "./+types/fund-valuations";
import { FigureList } from "~/components/capital/figures";
import type { DataColumn } from "~/components/kit/data-table";
import { ErrorList, FileField, StatusButton } from "~/components/kit/fields";
import { ImportPreview } from "~/components/kit/import-preview";
import { useIntentForm } from "~/components/kit/intent-form";
import { PageSection } from "~/components/kit/page-section";
import { EnhancedForm } from "~/components/ui/enhanced-form";
import { valuationsCsvMessages, valuationsImportCopy as c } from "~/content/fund-operations";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { VALUATIONS_BODY_BYTES, VALUATIONS_INTENT } from "~/modules/valuations/constants";
import { MAX_VALUATIONS } from "~/modules/valuations/valuations.server";
import { pageMeta } from "~/modules/seo/meta";
import { answerValuationsIntent, fundOfPage, type ValuationsAnswer } from "./fund-operations.server";

const MB = VALUATIONS_BODY_BYTES / 1024 / 1024;
type Fetcher = FetcherWithComponents<ValuationsAnswer>;

/**
 * /admin/funds/{slug}/valuations (issue 24 §7): the valuations (NAV) import
 * from a CSV file. The upload answers with the preview (every row, its
 * errors; nothing written); the preview's confirm form carries the file's
 * text back in a hidden field, and the import reads and checks it again from
 * scratch before saving it all or nothing (modules/valuations/valuations-csv.server.ts).
 * Both forms are plain multipart posts without JavaScript (the page renders
 * the answer) and a fetcher's with it.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const fund = fundOfPage(params.slug);
  return { fund: { slug: fund.slug, name: fund.name, currency: fund.currency }, maxRows: MAX_VALUATIONS };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const fund = fundOfPage(params.slug);
  return answerValuationsIntent(admin, fund, request);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: c.title, description: c.intro(args.data?.fund.name ?? ""), path: `${ADMIN_PATHS.funds}/${args.params.slug}/valuations`, noindex: true });

type PreviewRow = NonNullable<ValuationsAnswer["preview"]>["rows"][number];

const previewColumns: DataColumn<PreviewRow>[] = [
  // What the file says is shown as typed (cut at 80 characters) where it did not resolve, in italics.
  { key: "entity", header: c.preview.columns.entity, rowHeader: true, card: "primary", className: "break-words", cell: (row) => (row.resolved ? row.entity : <i>{row.entity || "—"}</i>) },
  { key: "date", header: c.preview.columns.date, width: "w-32", cell: (row) => row.date || "—" },
  { key: "nav", header: c.preview.columns.nav, width: "w-40", className: "tabular-nums break-words", cell: (row) => row.nav || "—" },
];

function UploadForm({ action, answer, busy, fetcher, maxRows }: { action: string; answer: ValuationsAnswer | undefined; busy: boolean; fetcher: Fetcher; maxRows: number }) {
  const [tooLarge, setTooLarge] = useState(false);
  const errors = tooLarge ? [valuationsCsvMessages.tooLarge(MB)] : answer?.fields?.file;
  const pick = (event: ChangeEvent<HTMLInputElement>) => setTooLarge((event.currentTarget.files?.[0]?.size ?? 0) > VALUATIONS_BODY_BYTES);
  // With JavaScript, a file over the limit is refused before it is sent.
  const submit = (event: FormEvent<HTMLFormElement>) => {
    if (tooLarge) event.preventDefault();
  };
  return (
    <EnhancedForm
      fetcher={fetcher}
      action={action}
      encType="multipart/form-data"
      onSubmit={submit}
      aria-labelledby="upload-title"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="upload-title" className="text-lg font-semibold">
        {c.upload.title}
      </h2>
      <input type="hidden" name="intent" value={VALUATIONS_INTENT} />
      <input type="hidden" name="step" value="preview" />
      <FileField id="valuations-file" name="file" className="mt-4" label={c.upload.file} hint={c.upload.hint(MB, maxRows)} errors={errors} accept=".csv,text/csv" required onChange={pick} />
      <StatusButton className="mt-4" pending={busy} pendingLabel={c.upload.submitting}>
        {c.upload.submit}
      </StatusButton>
    </EnhancedForm>
  );
}

function FileFormat({ fund }: { fund: string }) {
  return (
    <section aria-labelledby="format-title" className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
      <h2 id="format-title" className="text-base font-semibold">
        {c.upload.formatTitle}
      </h2>
      <dl className="mt-3 space-y-2 text-sm">
        {c.upload.format.map((column) => (
          <div key={column.name}>
            <dt className="font-mono text-xs font-semibold text-slate-900 dark:text-slate-100">{column.name}</dt>
            <dd className="text-slate-600 dark:text-slate-300">{column.text}</dd>
          </div>
        ))}
      </dl>
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-medium text-brand-700 dark:text-brand-300">{c.upload.exampleTitle}</summary>
        <pre className="mt-2 overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed text-slate-800 dark:bg-slate-950 dark:text-slate-200">{c.upload.example(fund)}</pre>
      </details>
    </section>
  );
}

function Preview({ answer, action, busy, fetcher }: { answer: ValuationsAnswer; action: string; busy: boolean; fetcher: Fetcher }) {
  const preview = answer.preview!;
  const formError = answer.fields?.form;
  const confirmable = answer.csv !== undefined && preview.withErrors === 0;
  return (
    <PageSection id="preview" title={c.preview.title(answer.fileName ?? "")}>
      {preview.figures.length ? <FigureList figures={preview.figures} className="mb-4" /> : null}
      <ImportPreview label={c.preview.caption} rows={preview.rows} columns={previewColumns} />
      {confirmable ? (
        <EnhancedForm
          fetcher={fetcher}
          action={action}
          encType="multipart/form-data"
          aria-label={c.preview.confirm(preview.ready)}
          className="mt-6 flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800 dark:bg-slate-900"
        >
          <input type="hidden" name="intent" value={VALUATIONS_INTENT} />
          <input type="hidden" name="step" value="confirm" />
          <input type="hidden" name="expected" value={preview.ready} />
          <input type="hidden" name="fileName" value={answer.fileName ?? ""} />
          <input type="hidden" name="csv" value={answer.csv} />
          <p className="text-sm text-slate-700 dark:text-slate-200">
            <span className="font-medium">{c.preview.nothingSaved}</span> {preview.date ? c.preview.confirmHint(preview.date) : null}
          </p>
          <StatusButton className="shrink-0" pending={busy} pendingLabel={c.preview.confirming}>
            {c.preview.confirm(preview.ready)}
          </StatusButton>
        </EnhancedForm>
      ) : (
        <p className="mt-6 flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-4 text-sm font-medium text-red-900 dark:border-red-800 dark:bg-red-950/40 dark:text-red-100">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {c.preview.fixAndRetry}
        </p>
      )}
      <ErrorList id="preview-error" errors={formError} />
    </PageSection>
  );
}

export default function FundValuations({ loaderData }: Route.ComponentProps) {
  const { fund, maxRows } = loaderData;
  const action = `${ADMIN_PATHS.funds}/${fund.slug}/valuations`;
  // Both forms answer through one fetcher: the page shows the latest answer, a preview or a refusal.
  const { fetcher, answer, busy } = useIntentForm<ValuationsAnswer>(VALUATIONS_INTENT);
  const step = busy ? fetcher.formData?.get("step") : null;
  return (
    <>
      <BackLink to={`${ADMIN_PATHS.funds}/${fund.slug}`}>{c.back(fund.name)}</BackLink>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{c.title}</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{c.intro(fund.name)}</p>
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
        <UploadForm action={action} answer={answer?.status === "error" ? answer : undefined} busy={step === "preview"} fetcher={fetcher} maxRows={maxRows} />
        {/* Beside the form on a wide screen; on a narrow one under the preview, once there is one. */}
        <div className={answer?.preview ? "max-lg:hidden" : undefined}>
          <FileFormat fund={fund.slug} />
        </div>
      </div>
      {answer?.preview ? (
        <>
          <Preview answer={answer} action={action} busy={step === "confirm"} fetcher={fetcher} />
          <div className="mt-8 lg:hidden">
            <FileFormat fund={fund.slug} />
          </div>
        </>
      ) : null}
    </>
  );
}

import type { FetcherWithComponents } from "react-router";
import type { Route } from "./+types/fund-valuations";
import { FigureList } from "~/components/capital/figures";
import { BackLink } from "~/components/kit/back-link";
import { CsvFormat } from "~/components/kit/csv-format";
import { CsvUploadForm, ImportConfirm, ImportLayout, useImportForms } from "~/components/kit/csv-import";
import type { DataColumn } from "~/components/kit/data-table";
import { FileField } from "~/components/kit/fields";
import { ImportPreview } from "~/components/kit/import-preview";
import { PageSection } from "~/components/kit/page-section";
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
  return (
    <CsvUploadForm
      fetcher={fetcher}
      action={action}
      intent={VALUATIONS_INTENT}
      titleId="upload-title"
      copy={c.upload}
      limitBytes={VALUATIONS_BODY_BYTES}
      busy={busy}
    >
      {({ tooLarge, pick }) => (
        <FileField
          id="valuations-file"
          name="file"
          className="mt-4"
          label={c.upload.file}
          hint={c.upload.hint(MB, maxRows)}
          errors={tooLarge ? [valuationsCsvMessages.tooLarge(MB)] : answer?.fields?.file}
          accept=".csv,text/csv"
          required
          onChange={pick}
        />
      )}
    </CsvUploadForm>
  );
}

function FileFormat({ fund }: { fund: string }) {
  return <CsvFormat title={c.upload.formatTitle} columns={c.upload.format} exampleTitle={c.upload.exampleTitle} example={c.upload.example(fund)} />;
}

function Preview({ answer, action, busy, fetcher }: { answer: ValuationsAnswer; action: string; busy: boolean; fetcher: Fetcher }) {
  const preview = answer.preview!;
  const confirmable = answer.csv !== undefined && preview.withErrors === 0;
  return (
    <PageSection id="preview" title={c.preview.title(answer.fileName ?? "")}>
      {preview.figures.length ? <FigureList figures={preview.figures} className="mb-4" /> : null}
      <ImportPreview label={c.preview.caption} rows={preview.rows} columns={previewColumns} />
      <ImportConfirm
        fetcher={fetcher}
        action={action}
        intent={VALUATIONS_INTENT}
        copy={c.preview}
        label={c.preview.confirm(preview.ready)}
        busy={busy}
        fields={confirmable ? { expected: preview.ready, fileName: answer.fileName ?? "", csv: answer.csv! } : null}
        multipart
        errors={answer.fields?.form}
      >
        <p className="text-sm text-slate-700 dark:text-slate-200">
          <span className="font-medium">{c.preview.nothingSaved}</span> {preview.date ? c.preview.confirmHint(preview.date) : null}
        </p>
      </ImportConfirm>
    </PageSection>
  );
}

export default function FundValuations({ loaderData }: Route.ComponentProps) {
  const { fund, maxRows } = loaderData;
  const action = `${ADMIN_PATHS.funds}/${fund.slug}/valuations`;
  const { fetcher, answer, previewing, confirming } = useImportForms<ValuationsAnswer>(VALUATIONS_INTENT);
  return (
    <>
      <BackLink to={`${ADMIN_PATHS.funds}/${fund.slug}`}>{c.back(fund.name)}</BackLink>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{c.title}</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{c.intro(fund.name)}</p>
      <ImportLayout
        form={<UploadForm action={action} answer={answer?.status === "error" ? answer : undefined} busy={previewing} fetcher={fetcher} maxRows={maxRows} />}
        format={<FileFormat fund={fund.slug} />}
        preview={answer?.preview ? <Preview answer={answer} action={action} busy={confirming} fetcher={fetcher} /> : null}
      />
    </>
  );
}

import { CircleCheck, TriangleAlert } from "lucide-react";
import { bulkPreviewCopy } from "~/content/bulk-upload";
import type { FileProblem } from "~/modules/bulk-upload/constants";
import { FILE_PROBLEM_LABELS } from "~/modules/bulk-upload/messages";
import { Button } from "../ui/form";
import { DataTable, PersonLines, type DataColumn } from "../kit/data-table";

/** One file of a batch as the preview shows it (the loader formats sizes and dates). */
export type BulkPreviewRow = {
  key: string;
  fileName: string;
  size: string;
  investor: { name: string; email: string; referenceCode: string | null } | null;
  problem: FileProblem | null;
  /** An ambiguous file's investors' e-mail addresses. */
  candidates: string[];
};

export type BulkPreviewData = {
  uploadedAt: string;
  uploadedAtIso: string;
  fields: { title: string; category: string; description: string | null; watermark: boolean };
  rows: BulkPreviewRow[];
  publishable: number;
};

export const PUBLISH_BATCH_INTENT = "publish";
export const CANCEL_BATCH_INTENT = "cancel";

const c = bulkPreviewCopy;
const none = <span aria-hidden="true">—</span>;

/** Each file a line (below 640 px a card: the file and its outcome, then the investor). */
const previewColumns: ReadonlyArray<DataColumn<BulkPreviewRow>> = [
  { key: "file", header: c.columns.file, card: "primary", rowHeader: true, className: "font-medium break-all", cell: (row) => row.fileName },
  { key: "size", header: c.columns.size, width: "w-24", className: "whitespace-nowrap tabular-nums", cell: (row) => row.size },
  { key: "investor", header: c.columns.investor, cell: (row) => (row.investor ? <PersonLines name={row.investor.name} email={row.investor.email} /> : none) },
  {
    key: "code",
    header: c.columns.code,
    width: "w-32",
    className: "font-mono text-xs whitespace-nowrap",
    cell: (row) => (row.investor ? (row.investor.referenceCode ?? <span className="font-sans">{c.noCode}</span>) : none),
  },
  {
    key: "outcome",
    header: c.columns.outcome,
    width: "w-[28%]",
    card: "meta",
    cell: (row) =>
      row.problem ? (
        <span className="flex items-start gap-1.5 font-semibold text-amber-900 dark:text-amber-200">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>
            {FILE_PROBLEM_LABELS[row.problem]}
            {row.candidates.length > 0 ? <span className="block font-normal">{c.ambiguousWith(row.candidates)}</span> : null}
          </span>
        </span>
      ) : (
        <span className="flex items-center gap-1.5 text-emerald-800 dark:text-emerald-200">
          <CircleCheck aria-hidden="true" className="size-4 shrink-0" />
          {c.willPublish}
        </span>
      ),
  },
];

/**
 * A staged batch before anything is published: the fields every document
 * gets, each file with the investor it goes to or why it will not be
 * published (flagged in words and with an icon, not by colour alone), and
 * the two choices, both plain posts to `action`.
 */
export function BulkPreview({ data, action }: { data: BulkPreviewData; action: string }) {
  const refused = data.rows.length - data.publishable;
  return (
    <>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
        <time dateTime={data.uploadedAtIso}>{c.uploadedAt(data.uploadedAt)}</time>
      </p>
      <p className="mt-4 text-sm text-slate-700 dark:text-slate-200">{c.intro}</p>
      <dl className="mt-6 grid gap-x-6 gap-y-2 rounded-lg border border-slate-200 p-4 text-sm sm:grid-cols-[max-content_1fr] dark:border-slate-800">
        <dt className="font-semibold">{c.fields.title}</dt>
        <dd className="break-words">{data.fields.title}</dd>
        <dt className="font-semibold">{c.fields.category}</dt>
        <dd>{data.fields.category}</dd>
        <dt className="font-semibold">{c.fields.description}</dt>
        <dd className="break-words">{data.fields.description ?? c.fields.noDescription}</dd>
        <dt className="font-semibold">{c.fields.watermark}</dt>
        <dd>{data.fields.watermark ? c.fields.watermarkOn : c.fields.watermarkOff}</dd>
      </dl>

      <p role="status" data-testid="bulk-summary" className="mt-6 font-medium">
        {c.summary(data.publishable, refused)}
      </p>
      <DataTable
        label={c.caption}
        columns={previewColumns}
        rows={data.rows}
        rowKey={(row) => row.key}
        rowTestId="bulk-row"
        rowProps={(row) => ({ "data-problem": row.problem ?? "none", ...(row.problem ? { className: "bg-amber-50/60 dark:bg-amber-950/30" } : {}) })}
      />

      {data.publishable === 0 ? <p className="mt-6 text-sm text-slate-700 dark:text-slate-200">{c.nothing}</p> : null}
      <div className="mt-6 flex flex-wrap gap-3">
        {data.publishable > 0 ? (
          <form method="post" action={action}>
            <input type="hidden" name="intent" value={PUBLISH_BATCH_INTENT} />
            <input type="hidden" name="expected" value={data.publishable} />
            <Button type="submit">{c.publish(data.publishable)}</Button>
          </form>
        ) : null}
        <form method="post" action={action}>
          <input type="hidden" name="intent" value={CANCEL_BATCH_INTENT} />
          <Button type="submit" variant="secondary">
            {c.cancel}
          </Button>
        </form>
      </div>
    </>
  );
}

import { ArrowLeft, Download } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/notice";
import { DataTable, type DataColumn } from "~/components/kit/data-table";
import { FigureList } from "~/components/capital/figures";
import { PaymentDetails } from "~/components/capital/payment-details";
import { ledgerLineLabels, noticeCopy as c } from "~/content/capital";
import { paymentInstructionsCopy as pc } from "~/content/fund-operations";
import { requireInvestor } from "~/modules/auth/guards.server";
import { noticeFor } from "~/modules/capital-account/capital-account.server";
import { formatDecimal } from "~/modules/capital/money";
import { paymentInstructionLines, readPaymentInstructions } from "~/modules/funds/payment-instructions.server";
import { adminDate } from "~/modules/dates/format";
import { notFound } from "~/modules/http/not-found";
import { pageMeta } from "~/modules/seo/meta";
import { noticeDocumentId } from "~/modules/statements/reads.server";
import { documentDownloadPath } from "~/components/statements/paths";
import { lpStatementsCopy as sc } from "~/content/statements";

const BACK = "/lp/capital-account";
const day = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));
const pdfOf = (documentId: string | null) => (documentId ? documentDownloadPath(documentId) : null);
const paymentLinesOf = (column: string | null) => {
  const saved = readPaymentInstructions(column);
  return saved ? paymentInstructionLines(saved) : null;
};

/**
 * /lp/notices/{id}: a published call's or distribution's notice, for the
 * entities of the investor's that it concerns: the amount, the dates, the
 * breakdown by type, what was received, and (for a call) the fund's payment
 * instructions with the firm's standing line. Anything else is a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireInvestor(request);
  const notice = /^[\w-]{1,100}$/.test(params.id) ? noticeFor(user, params.id) : null;
  if (!notice) throw notFound({ title: c.notFound.title, message: c.notFound.message, back: { to: BACK, label: c.back } });
  const money = (amount: string) => formatDecimal(amount, notice.fund.currency);
  const { entry } = notice;
  return {
    title: c.callTitle(notice.fund.name, entry.reference ?? ""),
    kind: entry.kind,
    dates:
      entry.kind === "call"
        ? [
            { label: c.noticeDate, value: day(entry.noticeDate!) },
            { label: c.dueDate, value: day(entry.dueDate!) },
          ]
        : [{ label: c.paymentDate, value: day(entry.paymentDate!) }],
    correction: entry.correctionOf !== null,
    // The fund's bank details (a call only): the saved ones, never an e-mail's (payment-instructions.server.ts).
    instructions: entry.kind === "call" ? paymentLinesOf(notice.fund.paymentInstructions) : null,
    shares: notice.shares.map((share) => ({
      entityId: share.entityId,
      entityName: share.entityName,
      // The entity's notice PDF, once the background job has made it (a document addressed to the entity).
      pdf: pdfOf(noticeDocumentId(user, params.id, share.entityId)),
      figures: [
        { label: c.amount, value: money(share.amount), testId: "notice-amount" },
        ...(entry.kind === "call"
          ? [
              { label: c.received, value: money(share.received), testId: "notice-received" },
              { label: c.outstanding, value: money(share.outstanding), testId: "notice-outstanding" },
            ]
          : []),
      ],
      lines: share.lines.map((line, i) => ({ key: String(i), type: ledgerLineLabels[line.type] ?? line.type, amount: money(line.amount) })),
    })),
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: args.data?.title ?? c.notFound.title, description: c.standing, path: `/lp/notices/${args.params.id}`, noindex: true });

type Line = Route.ComponentProps["loaderData"]["shares"][number]["lines"][number];
const lineColumns: DataColumn<Line>[] = [
  { key: "type", header: c.line, rowHeader: true, card: "primary", cell: (l) => l.type },
  { key: "amount", header: c.amount, className: "tabular-nums", cell: (l) => l.amount },
];

export default function NoticePage({ loaderData }: Route.ComponentProps) {
  const { title, dates, correction, kind, instructions, shares } = loaderData;
  return (
    <div>
      <Link to={BACK} className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {c.back}
      </Link>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
      <FigureList figures={dates} />
      {correction ? <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">{c.correction}</p> : null}
      {shares.map((share) => (
        <section key={share.entityId} aria-labelledby={`share-${share.entityId}`} className="mt-8" data-testid="notice-share">
          <div className="flex flex-wrap items-baseline gap-x-5 gap-y-1">
            <h2 id={`share-${share.entityId}`} className="text-lg font-semibold">
              {share.entityName}
            </h2>
            {share.pdf ? (
              <a href={share.pdf} download className="notice-link inline-flex items-center gap-1.5 text-sm font-medium" aria-label={sc.links.noticePdfLabel(share.entityName)} data-testid="notice-pdf">
                <Download aria-hidden="true" className="size-4" />
                {sc.links.noticePdf}
              </a>
            ) : null}
          </div>
          <FigureList figures={share.figures} />
          <h3 className="mt-4 text-base font-semibold">{c.breakdown}</h3>
          <div className="max-w-xl">
            <DataTable label={`${c.breakdown}: ${share.entityName}`} rows={share.lines} rowKey={(l) => l.key} columns={lineColumns} dense />
          </div>
        </section>
      ))}
      {kind === "call" ? (
        <section aria-labelledby="instructions" data-testid="notice-instructions" className="mt-8 max-w-3xl rounded-xl border border-slate-200 p-5 dark:border-slate-800">
          <h2 id="instructions" className="text-lg font-semibold">
            {pc.notice.title}
          </h2>
          <div className="mt-3">
            <PaymentDetails lines={instructions} empty={pc.notice.notSet} standing={pc.standing} />
          </div>
        </section>
      ) : null}
    </div>
  );
}

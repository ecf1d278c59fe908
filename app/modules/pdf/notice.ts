import PDFDocument from "pdfkit";
import { noticePdfCopy as copy, percentText } from "~/content/pdf";
import { formatMoney, parseSignedAmount } from "../capital/money";
import type { NoticeDoc, NoticeLine } from "../statements/types";
import { FONT } from "./fonts";
import { type TableSpec, drawTable, measureTable } from "./table";
import { COLOR, CONTENT_BOTTOM, CONTENT_WIDTH, PAGE, SIZE, Structure, day, newPdf, footers, heightOf, metaRow, put, runningHeader } from "./layout";

/**
 * A capital call's or a distribution's notice to one entity, as a PDF, in the
 * ILPA notice layout (issue 25 §3): the header (fund, entity and investor id,
 * the notice's number and date, the due or payment date, the currency), the
 * amount due or payable set apart, the fund's section and the investor's,
 * and for a call the payment instructions with the standing line that the
 * firm never changes bank details by e-mail.
 */

export function noticePdfMeta(notice: NoticeDoc) {
  return {
    title: copy.documentTitle(notice.kind, notice.fund.name, notice.reference, notice.entity.name),
    author: notice.firmName,
    subject: copy.subject(notice.kind, notice.reference, notice.entity.name, notice.fund.name),
    keywords: copy.keywords,
    date: notice.noticeDate,
  };
}

/**
 * Draws `notice` into `out`: a stream (the document is made, piped to it and
 * ended) or a pdfkit document made by the caller (drawn into, not ended).
 */
export async function writeNoticePdf(notice: NoticeDoc, out: NodeJS.WritableStream | PDFKit.PDFDocument): Promise<void> {
  if (out instanceof PDFDocument) {
    drawNotice(out, notice);
    return;
  }
  const doc = await newPdf(noticePdfMeta(notice));
  doc.pipe(out);
  drawNotice(doc, notice);
  doc.end();
}

type Line = { label: string; value: string; indent?: boolean; total?: boolean; group?: boolean };

const AMOUNT_WIDTH = 128;

/** Draws into a document made with createPdf (synchronous; the caller ends it). */
export function drawNotice(doc: PDFKit.PDFDocument, n: NoticeDoc): void {
  const structure = new Structure(doc);
  const currency = n.fund.currency;
  const minor = (amount: string) => {
    const parsed = parseSignedAmount(amount, currency);
    if (!parsed.ok) throw new RangeError(`Not an amount in ${currency}: ${amount}`);
    return parsed.minor;
  };
  const money = (amount: string) => formatMoney(minor(amount), currency, { parentheses: true });
  const isCall = n.kind === "call";
  const x = PAGE.margin;
  const dueOrPaid = day(n.dueOrPaymentDate);

  /** A page's running header; returns the y under it. */
  const header = () => runningHeader(doc, structure, n.firmName, copy.kicker[n.kind]);
  let y = header();
  structure.add("H1", () => put(doc, copy.title[n.kind], x, y, { font: FONT.bold, size: SIZE.h1 }));
  y += 24;
  structure.add("P", () => put(doc, copy.subtitle(n.fund.name, n.reference), x, y, { size: SIZE.figure, color: COLOR.body, width: CONTENT_WIDTH }));
  y = doc.y + 11;

  // The amount due or payable, set apart: what the reader acts on.
  const band = 46;
  structure.artifact(() => doc.save().roundedRect(x, y, CONTENT_WIDTH, band, 4).fillColor(COLOR.brandSoft).fill().restore());
  structure.add("P", () => {
    put(doc, isCall ? copy.headline.call : copy.headline.distribution, x + 14, y + 9, { size: SIZE.label, color: COLOR.brand });
    put(doc, money(n.investorSection.total), x + 14, y + 20, { font: FONT.bold, size: 16, color: COLOR.ink });
  });
  structure.add("P", () =>
    put(doc, isCall ? copy.headline.callDate(dueOrPaid) : copy.headline.distributionDate(dueOrPaid), x, y + 22, { font: FONT.bold, size: SIZE.h2, color: COLOR.brand, width: CONTENT_WIDTH - 14, align: "right" }),
  );
  y += band + 16;

  y = metaRow(doc, structure, y, [
    { label: copy.meta.entity, value: n.entity.name, weight: 2 },
    { label: copy.meta.investorId, value: n.entity.id, weight: 2 },
  ]);
  y = metaRow(doc, structure, y + 10, [
    { label: copy.meta.reference, value: n.reference },
    { label: copy.meta.noticeDate, value: day(n.noticeDate) },
    { label: isCall ? copy.meta.dueDate : copy.meta.paymentDate, value: dueOrPaid },
    { label: copy.meta.currency, value: currency },
  ]);
  y += 20;

  const lines = (items: NoticeLine[]): Line[] => items.map((line) => ({ label: copy.lineLabel(line.type), value: money(line.amount), indent: true }));
  const fundTotal = n.fundSection.thisNotice.reduce((sum, line) => sum + minor(line.amount), 0n);
  const fundRows: Line[] = [
    { label: copy.fundSection.totalCommitments, value: money(n.fundSection.totalCommitments) },
    { label: copy.fundSection.contributionsBefore, value: money(n.fundSection.contributionsBefore) },
    { label: copy.fundSection.distributionsBefore, value: money(n.fundSection.distributionsBefore) },
    { label: copy.fundSection.thisNotice, value: "", group: true },
    ...lines(n.fundSection.thisNotice),
    { label: copy.fundSection.total, value: formatMoney(fundTotal, currency, { parentheses: true }), total: true },
  ];
  y = section(doc, structure, y, copy.fundSection.title, fundRows, header) + 20;

  const investorRows: Line[] = [
    { label: copy.investorSection.commitment, value: money(n.investorSection.commitment) },
    { label: copy.investorSection.shareOfFund, value: percentText(n.investorSection.shareOfFund) },
    { label: copy.investorSection.contributionsBefore, value: money(n.investorSection.contributionsBefore) },
    { label: copy.investorSection.distributionsBefore, value: money(n.investorSection.distributionsBefore) },
    { label: copy.investorSection.thisNotice, value: "", group: true },
    ...lines(n.investorSection.thisNotice),
    { label: isCall ? copy.investorSection.totalCall : copy.investorSection.totalDistribution, value: money(n.investorSection.total), total: true },
    { label: copy.investorSection.unfundedAfter, value: money(n.investorSection.unfundedAfter) },
  ];
  y = section(doc, structure, y, copy.investorSection.title(n.entity.name), investorRows, header) + 20;

  if (isCall) instructions(doc, structure, n, y, money(n.investorSection.total), dueOrPaid, header);

  footers(doc, structure, copy.footer.left(n.firmName, n.reference, day(n.noticeDate)), copy.footer.page);
  structure.end();
}

/** A section: its heading and a two-column table of labels and amounts. */
function section(doc: PDFKit.PDFDocument, structure: Structure, y: number, title: string, rows: Line[], header: () => number): number {
  // A long entity's name wraps: the table starts under the heading's last line.
  const headingHeight = heightOf(doc, title, CONTENT_WIDTH, FONT.bold, SIZE.h2) + 5;
  const table: TableSpec = {
    y: y + headingHeight,
    columns: [{ width: CONTENT_WIDTH - AMOUNT_WIDTH }, { width: AMOUNT_WIDTH, align: "right" }],
    bleed: 4,
    rows: [
      ...rows.map((row, i) => ({
        strongRuleAbove: i === 0,
        total: row.total,
        cells: [
          { text: row.label, header: "Row" as const, color: row.total ? COLOR.ink : row.group ? COLOR.muted : COLOR.body, indent: row.indent ? 12 : 0 },
          { text: row.value },
        ],
      })),
    ],
    onNewPage: header,
  };
  if (y + headingHeight + measureTable(doc, table) > CONTENT_BOTTOM) {
    doc.addPage();
    y = header();
    table.y = y + headingHeight;
  }
  structure.add("H2", () => put(doc, title, PAGE.margin, y, { font: FONT.bold, size: SIZE.h2, width: CONTENT_WIDTH }));
  return drawTable(doc, structure, table);
}

/** A call's payment instructions, and the standing line about bank details in its own box. */
function instructions(doc: PDFKit.PDFDocument, structure: Structure, n: NoticeDoc, y: number, amount: string, date: string, header: () => number): number {
  const x = PAGE.margin;
  const pairs = n.paymentInstructions ?? [];
  const standing = n.standingLine;
  const standingHeight = standing ? 16 + heightOf(doc, standing, CONTENT_WIDTH - 24, FONT.regular, SIZE.body, 1.5) + 14 : 0;
  const needed = 40 + pairs.length * 17 + standingHeight;
  if (y + needed > CONTENT_BOTTOM) {
    doc.addPage();
    y = header();
  }
  structure.add("H2", () => put(doc, copy.instructions.title, x, y, { font: FONT.bold, size: SIZE.h2 }));
  y += 17;
  const intro = pairs.length ? copy.instructions.intro(amount, date) : copy.instructions.none;
  structure.add("P", () => doc.font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.body).text(intro, x, y, { width: CONTENT_WIDTH, lineGap: 1.5 }));
  y = doc.y + 8;
  if (pairs.length) {
    y =
      drawTable(doc, structure, {
        y,
        inset: 0,
        columns: [{ width: 150 }, { width: CONTENT_WIDTH - 150 }],
        rows: pairs.map((pair) => ({ cells: [{ text: pair.label, header: "Row" as const, color: COLOR.muted }, { text: pair.value, bold: true }] })),
        onNewPage: header,
      }) + 14;
  }
  if (standing) {
    structure.artifact(() =>
      doc
        .save()
        .roundedRect(x, y, CONTENT_WIDTH, standingHeight, 4)
        .fillColor(COLOR.warnSoft)
        .fill()
        .rect(x, y, 2.5, standingHeight)
        .fillColor(COLOR.warnRule)
        .fill()
        .restore(),
    );
    structure.add("H3", () => put(doc, copy.instructions.standingTitle, x + 14, y + 9, { font: FONT.bold, size: SIZE.body, color: COLOR.warn }));
    structure.add("P", () => doc.font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.body).text(standing, x + 14, y + 23, { width: CONTENT_WIDTH - 24, lineGap: 1.5 }));
    y += standingHeight;
  }
  return y;
}

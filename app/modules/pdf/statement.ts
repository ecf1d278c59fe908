import PDFDocument from "pdfkit";
import { percentText, rollForwardLabels, statementPdfCopy as copy } from "~/content/pdf";
import { formatDecimal, formatMoney, parseSignedAmount } from "../capital/money";
import type { StatementDoc, StoredColumn } from "../statements/types";
import { chartSummary, drawChart } from "./chart";
import { FONT } from "./fonts";
import { type Cell, type TableRow, type TableSpec, drawTable, measureTable } from "./table";
import { COLOR, CONTENT_BOTTOM, CONTENT_WIDTH, PAGE, SIZE, Structure, day, newPdf, footers, heightOf, metaRow, put, rule, runningHeader } from "./layout";

/**
 * A quarterly capital account statement as a PDF (issue 25 §1, §4; decision
 * 041): one A4 page for a normal statement. The firm and fund, the entity and
 * the quarter; the ILPA roll-forward with its three columns (the quarter, year
 * to date, inception to date or "Since {quarter}"); the figures as of the
 * quarter end beside the capital account's chart; the notes. A restatement
 * says "Restated" by its title and lists what changed.
 *
 * Amounts are the page's: the fund's currency, negatives in parentheses
 * (distributions and "less contributions" are stored positive and shown
 * negative).
 */

type AmountRow = { kind: "amount"; key: keyof StoredColumn & keyof typeof rollForwardLabels; negate?: boolean; indent?: boolean; total?: boolean };
type Row = AmountRow | { kind: "group"; label: string };

/** The roll-forward's rows in the order and words. */
const ROWS: Row[] = [
  { kind: "group", label: copy.table.groups.nav },
  { kind: "amount", key: "beginningNav" },
  { kind: "amount", key: "contributions" },
  { kind: "amount", key: "distributions", negate: true },
  { kind: "amount", key: "managementFees" },
  { kind: "amount", key: "partnershipExpenses" },
  { kind: "amount", key: "otherIncome" },
  { kind: "amount", key: "realizedGain" },
  { kind: "amount", key: "unrealizedGainChange" },
  { kind: "amount", key: "carriedInterestChange" },
  { kind: "amount", key: "endingNav", total: true },
  { kind: "group", label: copy.table.groups.commitment },
  { kind: "amount", key: "totalCommitment" },
  { kind: "amount", key: "beginningUnfunded" },
  { kind: "amount", key: "commitmentIncreases", indent: true },
  { kind: "amount", key: "lessContributions", negate: true, indent: true },
  { kind: "amount", key: "recallableDistributions", indent: true },
  { kind: "amount", key: "endingUnfunded", total: true },
];

/** Stored positive, shown negative. */
const NEGATED: ReadonlySet<keyof StoredColumn> = new Set(ROWS.flatMap((row) => (row.kind === "amount" && row.negate ? [row.key] : [])));

const multiple = (value: number | null) => (value === null ? copy.notMeaningful : `${value.toFixed(2)}×`);
const percent = (value: number | null) => (value === null ? copy.notMeaningful : `${(value * 100).toFixed(1)} %`);

/** The width of each amount column. */
const AMOUNT_WIDTH = 104;
/** The figures' and the chart's height. */
const FIGURES_HEIGHT = 146;
/** The space above and below a roll-forward row's text: normal, and closer when a restatement's box needs the room. */
const ROW_PAD = { normal: 3.3, dense: 2.3 } as const;

export function statementPdfMeta(statement: StatementDoc) {
  return {
    title: copy.documentTitle(statement.fund.name, statement.quarter, statement.entity.name),
    author: statement.firmName,
    subject: copy.subject(statement.entity.name, statement.fund.name, statement.quarter),
    keywords: copy.keywords,
    date: statement.publishedOn,
  };
}

/**
 * Draws `statement` into `out`: a stream (the document is made, piped to it
 * and ended) or a pdfkit document made by the caller (drawn into, not ended).
 */
export async function writeStatementPdf(statement: StatementDoc, out: NodeJS.WritableStream | PDFKit.PDFDocument): Promise<void> {
  if (out instanceof PDFDocument) {
    drawStatement(out, statement);
    return;
  }
  const doc = await newPdf(statementPdfMeta(statement));
  doc.pipe(out);
  drawStatement(doc, statement);
  doc.end();
}

/** Draws into a document made with createPdf (synchronous; the caller ends it). */
export function drawStatement(doc: PDFKit.PDFDocument, s: StatementDoc): void {
  const structure = new Structure(doc);
  const currency = s.fund.currency;
  const money = (amount: string) => formatDecimal(amount, currency, { parentheses: true });
  const x = PAGE.margin;

  let y = runningHeader(doc, structure, s.firmName, copy.kicker);

  // Title, with the "Restated" mark beside it.
  structure.add("H1", () => put(doc, copy.title, x, y, { font: FONT.bold, size: SIZE.h1 }));
  if (s.restated) {
    const titleWidth = doc.font(FONT.bold).fontSize(SIZE.h1).widthOfString(copy.title);
    const label = copy.restated.toUpperCase();
    const labelWidth = doc.font(FONT.bold).fontSize(SIZE.small).widthOfString(label, { characterSpacing: 0.8 });
    const bx = x + titleWidth + 10;
    structure.artifact(() => doc.save().roundedRect(bx, y + 3.5, labelWidth + 12, 14, 3).fillColor(COLOR.warnSoft).strokeColor(COLOR.warnRule).lineWidth(0.6).fillAndStroke().restore());
    structure.add("Span", () => put(doc, label, bx + 6, y + 7, { font: FONT.bold, size: SIZE.small, color: COLOR.warn, characterSpacing: 0.8 }));
  }
  y += 24;
  structure.add("P", () => put(doc, s.fund.name, x, y, { size: SIZE.figure, color: COLOR.body, width: CONTENT_WIDTH }));
  y = doc.y + 11;

  y = metaRow(doc, structure, y, [
    { label: copy.meta.entity, value: s.entity.name, detail: copy.meta.investorIdValue(s.entity.id), weight: 2.4 },
    { label: copy.meta.quarter, value: s.quarter },
    { label: copy.meta.periodEnd, value: day(s.periodEnd) },
    { label: copy.meta.currency, value: currency },
  ]);
  y += 12;

  if (s.restated) y = drawDifferences(doc, structure, s, y) + 14;

  // The notes under everything, measured first: the roll-forward's rows are set closer when the page needs it.
  const notes: string[] = [copy.notes.signs];
  if (s.callsNoticedNotDue) notes.push(copy.notes.dueDate);
  if (s.inceptionPartial) notes.push(copy.notes.inceptionPartial(s.columns.inceptionToDate.fromQuarter));
  if (s.irrNote) notes.push(`${copy.figures.irr}: ${copy.irrNotes[s.irrNote] ?? s.irrNote}`);
  const notesHeight = 13 + notes.reduce((h, n) => h + heightOf(doc, n, CONTENT_WIDTH - 14, FONT.regular, SIZE.small, 1) + 4, 0);
  const newPage = () => runningHeader(doc, structure, s.firmName, copy.kicker);
  let rollForward = rollForwardTable(s, y + 18, ROW_PAD.normal, newPage);
  const dense = y + 18 + measureTable(doc, rollForward) + 18 + FIGURES_HEIGHT + 20 + notesHeight > CONTENT_BOTTOM;
  if (dense) rollForward = rollForwardTable(s, y + 18, ROW_PAD.dense, newPage);
  const gap = dense ? 13 : 18;

  // The roll-forward.
  structure.add("H2", () => put(doc, copy.table.title, x, y, { font: FONT.bold, size: SIZE.h2 }));
  y = drawTable(doc, structure, rollForward) + gap;

  // The figures as of the quarter end (left), the chart (right).
  if (y + FIGURES_HEIGHT > CONTENT_BOTTOM) {
    doc.addPage();
    y = newPage();
  }
  const figuresWidth = 196;
  const gutter = 28;
  const chartBox = { x: x + figuresWidth + gutter, y, width: CONTENT_WIDTH - figuresWidth - gutter, height: FIGURES_HEIGHT - (dense ? 12 : 0) };
  structure.add("H2", () => put(doc, copy.figures.title, x, y, { font: FONT.bold, size: SIZE.h2 }));
  const figures: [string, string][] = [
    [copy.figures.paidIn, money(s.paidInToDate)],
    [copy.figures.distributed, money(s.distributedToDate)],
    [copy.figures.dpi, multiple(s.dpi)],
    [copy.figures.rvpi, multiple(s.rvpi)],
    [copy.figures.tvpi, multiple(s.tvpi)],
    [copy.figures.irr, percent(s.irr)],
    [copy.figures.share, percentText(s.shareOfFund)],
  ];
  const figuresBottom = drawTable(doc, structure, {
    y: y + 18,
    pad: dense ? 2.6 : 3.3,
    columns: [{ width: figuresWidth - 96 }, { width: 96, align: "right" }],
    rows: figures.map(([label, value]) => ({ cells: [{ text: label, header: "Row", color: COLOR.body }, { text: value, bold: true }] })),
  });
  structure.add("H2", () => put(doc, copy.chart.title, chartBox.x, y, { font: FONT.bold, size: SIZE.h2 }));
  const chartInput = { points: s.chart, currency, fund: s.fund.name, entity: s.entity.name };
  structure.add("Figure", () => drawChart(doc, { ...chartBox, y: chartBox.y + 16, height: chartBox.height - 16 }, chartInput), { alt: chartSummary(chartInput) });
  y = Math.max(figuresBottom, chartBox.y + chartBox.height) + gap + 2;

  // Notes.
  if (y + notesHeight > CONTENT_BOTTOM) {
    doc.addPage();
    y = newPage();
  }
  structure.artifact(() => rule(doc, y - 8));
  structure.add("H2", () => put(doc, copy.notes.title, x, y, { font: FONT.bold, size: SIZE.small, color: COLOR.muted }));
  y += 13;
  notes.forEach((note, i) => {
    structure.add("P", () => {
      put(doc, `${i + 1}`, x, y, { size: SIZE.small, color: COLOR.muted });
      doc.font(FONT.regular).fontSize(SIZE.small).fillColor(COLOR.body).text(note, x + 14, y, { width: CONTENT_WIDTH - 14, lineGap: 1 });
    });
    y = doc.y + 4;
  });

  footers(doc, structure, copy.footer.left(s.firmName, s.version, day(s.publishedOn)), copy.footer.page);
  structure.end();
}

/** The ILPA roll-forward as a table, its rows `pad` apart. */
function rollForwardTable(s: StatementDoc, y: number, pad: number, onNewPage: () => number): TableSpec {
  const currency = s.fund.currency;
  const { quarter, yearToDate, inceptionToDate } = s.columns;
  const amount = (column: StoredColumn, row: AmountRow) => {
    const parsed = parseSignedAmount(column[row.key], currency);
    if (!parsed.ok) throw new RangeError(`Not an amount in ${currency}: ${column[row.key]}`);
    return formatMoney(row.negate ? -parsed.minor : parsed.minor, currency, { parentheses: true });
  };
  const heading = (text: string): Cell => ({ text, header: "Column", bold: true, size: SIZE.label, color: COLOR.muted });
  const rows: TableRow[] = [
    {
      strongRule: true,
      cells: [
        { text: "" },
        heading(s.quarter),
        heading(copy.table.columns.yearToDate),
        heading(s.inceptionPartial ? copy.table.columns.since(inceptionToDate.fromQuarter) : copy.table.columns.inceptionToDate),
      ],
    },
  ];
  for (const row of ROWS) {
    if (row.kind === "group") {
      rows.push({ span: true, padTop: pad * 2, cells: [{ text: row.label.toUpperCase(), header: "Row", bold: true, size: SIZE.small, color: COLOR.brand, characterSpacing: 0.8 }] });
      continue;
    }
    rows.push({
      total: row.total,
      cells: [
        { text: rollForwardLabels[row.key], header: "Row", color: row.total ? COLOR.ink : COLOR.body, indent: row.indent ? 12 : 0 },
        { text: amount(quarter, row) },
        { text: amount(yearToDate, row) },
        { text: amount(inceptionToDate, row) },
      ],
    });
  }
  return {
    y,
    pad,
    bleed: 4,
    columns: [{ width: CONTENT_WIDTH - 3 * AMOUNT_WIDTH }, { width: AMOUNT_WIDTH, align: "right" }, { width: AMOUNT_WIDTH, align: "right" }, { width: AMOUNT_WIDTH, align: "right" }],
    rows,
    headerRows: 1,
    onNewPage,
  };
}

/** The "Restated" box: what changed in the quarter's column against the previous version. */
function drawDifferences(doc: PDFKit.PDFDocument, structure: Structure, s: StatementDoc, y: number): number {
  const x = PAGE.margin;
  const pad = 10;
  const inner = CONTENT_WIDTH - 2 * pad;
  const currency = s.fund.currency;
  const labelOf = (row: keyof StoredColumn) => (row in rollForwardLabels ? rollForwardLabels[row as keyof typeof rollForwardLabels] : row);
  // As the table shows them: distributions and "less contributions" negative.
  const money = (row: keyof StoredColumn, value: string) => {
    const parsed = parseSignedAmount(value, currency);
    return parsed.ok ? formatMoney(NEGATED.has(row) ? -parsed.minor : parsed.minor, currency, { parentheses: true }) : value;
  };
  // The title says what the rows are; a restatement that changed no amount says so instead.
  const intro = s.differences.length ? null : copy.differences.none;
  const introHeight = intro ? heightOf(doc, intro, inner, FONT.regular, SIZE.small, 1) + 4 : 0;
  const rows: TableRow[] = s.differences.length
    ? [
        {
          strongRule: true,
          cells: [
            { text: "" },
            { text: copy.differences.columns.previous, header: "Column", bold: true, size: SIZE.label, color: COLOR.warn },
            { text: copy.differences.columns.current, header: "Column", bold: true, size: SIZE.label, color: COLOR.warn },
          ],
        },
        ...s.differences.map((d, i, all) => ({
          noRule: i === all.length - 1,
          cells: [
            { text: labelOf(d.row), header: "Row" as const, color: COLOR.body },
            { text: money(d.row, d.previous), color: COLOR.muted },
            { text: money(d.row, d.current), bold: true },
          ],
        })),
      ]
    : [];
  const table: TableSpec = {
    x: x + pad,
    y: y + pad + 16,
    size: SIZE.small,
    inset: 0,
    pad: 2.8,
    hairline: "#fde68a",
    columns: [{ width: inner - 2 * AMOUNT_WIDTH }, { width: AMOUNT_WIDTH, align: "right" }, { width: AMOUNT_WIDTH, align: "right" }],
    rows,
  };
  const height = pad + 14 + introHeight + (rows.length ? 2 + measureTable(doc, table) : 0) + pad - 2;
  structure.artifact(() => doc.save().roundedRect(x, y, CONTENT_WIDTH, height, 4).fillColor(COLOR.warnSoft).strokeColor(COLOR.warnRule).lineWidth(0.6).fillAndStroke().restore());
  structure.add("H2", () => put(doc, copy.differences.title(s.version - 1), x + pad, y + pad, { font: FONT.bold, size: SIZE.body, color: COLOR.warn }));
  if (intro) structure.add("P", () => doc.font(FONT.regular).fontSize(SIZE.small).fillColor(COLOR.body).text(intro, x + pad, y + pad + 15, { width: inner, lineGap: 1 }));
  if (rows.length) drawTable(doc, structure, table);
  return y + height;
}

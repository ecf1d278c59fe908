import { FONT } from "./fonts";
import { COLOR, CONTENT_BOTTOM, PAGE, SIZE, type Structure, rule } from "./layout";

/**
 * A tagged table drawn with text at fixed x positions: Table, TR, TH (with
 * its scope) and TD elements, the rules and bands as artifacts.
 *
 * Not pdfkit's table(): it tags each cell with an attribute dictionary of its
 * own (width, height, padding, borders) as separate objects, and pdfkit writes
 * no object streams, so the statement's tables alone came to ~25 KB of its
 * 66 KB, over the 60 KB budget (issue 25 §4). Here a cell is one small
 * structure element and the page's content stream carries the rest,
 * compressed.
 */

export type Column = { width: number; align?: "left" | "right" };
export type Cell = {
  text: string;
  /** A header cell (TH) and what it heads. */
  header?: "Column" | "Row";
  bold?: boolean;
  color?: string;
  size?: number;
  /** Extra room before the text (an indented row). */
  indent?: number;
  characterSpacing?: number;
};
export type TableRow = {
  cells: Cell[];
  /** One cell across all the columns (a group's heading). */
  span?: boolean;
  /** A total: a light band, a rule above and below. */
  total?: boolean;
  /** A rule under the row (the header's), stronger than the hairline. */
  strongRule?: boolean;
  /** The same rule above the row (a table without a header row). */
  strongRuleAbove?: boolean;
  /** Space above the text (a group's heading sits lower). */
  padTop?: number;
  /** No hairline under it. */
  noRule?: boolean;
};

export type TableSpec = {
  x?: number;
  y: number;
  columns: Column[];
  rows: TableRow[];
  /** Repeated at the top of a new page. */
  headerRows?: number;
  size?: number;
  /** Inner padding at the table's left and right edges. */
  inset?: number;
  /** How far a total's band and rules reach out beyond the columns, so its text stays in line with the rest. */
  bleed?: number;
  pad?: number;
  hairline?: string;
  /** Called after a page break, to draw the page's header; returns the y to continue at. */
  onNewPage?: () => number;
};

/** The geometry both drawing and measuring use. */
function layout(doc: PDFKit.PDFDocument, spec: TableSpec) {
  const x0 = spec.x ?? PAGE.margin;
  const size = spec.size ?? SIZE.body;
  const inset = spec.inset ?? 0;
  const pad = spec.pad ?? 3.3;
  const width = spec.columns.reduce((sum, c) => sum + c.width, 0);
  const lefts = spec.columns.map((_, i) => x0 + spec.columns.slice(0, i).reduce((sum, c) => sum + c.width, 0));

  const cellBox = (row: TableRow, i: number) => {
    const last = row.span ? true : i === spec.columns.length - 1;
    const left = lefts[i]! + (i === 0 ? inset : 0);
    const right = (row.span ? x0 + width : lefts[i]! + spec.columns[i]!.width) - (last ? inset : 6);
    return { left, width: right - left };
  };
  const fontOf = (cell: Cell, row: TableRow) => (cell.bold || row.total ? FONT.bold : FONT.regular);
  const heightOf = (row: TableRow) =>
    row.cells.reduce((h, cell, i) => {
      const box = cellBox(row, i);
      const text = doc
        .font(fontOf(cell, row))
        .fontSize(cell.size ?? size)
        .heightOfString(cell.text || " ", { width: box.width - (cell.indent ?? 0), characterSpacing: cell.characterSpacing ?? 0 });
      return Math.max(h, text);
    }, 0);
  /** The row's text's distance from its top, and its height. */
  const rowBox = (row: TableRow) => {
    const top = (row.padTop ?? 0) + (row.total ? pad + 1.2 : pad);
    return { top, height: top + heightOf(row) + (row.total ? pad + 1.2 : pad) };
  };
  return { x0, width, cellBox, fontOf, rowBox, size };
}

/** The table's height, drawn without a page break. */
export function measureTable(doc: PDFKit.PDFDocument, spec: TableSpec): number {
  const { rowBox } = layout(doc, spec);
  return spec.rows.reduce((sum, row) => sum + rowBox(row).height, 0);
}

/** Draws the table; returns the y under it. */
export function drawTable(doc: PDFKit.PDFDocument, structure: Structure, spec: TableSpec): number {
  const { x0, width, cellBox, fontOf, rowBox, size } = layout(doc, spec);
  const table = doc.struct("Table");
  structure.root.add(table);
  let y = spec.y;

  const drawRow = (row: TableRow) => {
    const { top, height } = rowBox(row);
    if (y + height > CONTENT_BOTTOM) {
      doc.addPage();
      y = spec.onNewPage ? spec.onNewPage() : PAGE.margin;
      for (const header of spec.rows.slice(0, spec.headerRows ?? 0)) drawRow(header);
    }
    structure.artifact(() => {
      if (row.strongRuleAbove) rule(doc, y, COLOR.rule, 0.8, x0, width);
      if (row.total) {
        const bleed = spec.bleed ?? 0;
        doc
          .save()
          .rect(x0 - bleed, y, width + 2 * bleed, height)
          .fillColor(COLOR.band)
          .fill()
          .restore();
        rule(doc, y, COLOR.ink, 0.8, x0 - bleed, width + 2 * bleed);
        rule(doc, y + height, COLOR.ink, 0.8, x0 - bleed, width + 2 * bleed);
      } else if (row.strongRule) rule(doc, y + height, COLOR.rule, 0.8, x0, width);
      else if (!row.noRule) rule(doc, y + height, spec.hairline ?? COLOR.hairline, 0.5, x0, width);
    });
    const tr = doc.struct("TR");
    table.add(tr);
    row.cells.forEach((cell, i) => {
      const box = cellBox(row, i);
      const align = row.span ? "left" : (spec.columns[i]!.align ?? "left");
      const options = cell.header ? ({ scope: cell.header } as PDFKit.Mixins.StructureElementOptions) : {};
      tr.add(
        doc.struct(cell.header ? "TH" : "TD", options, () => {
          if (!cell.text) return;
          doc
            .font(fontOf(cell, row))
            .fontSize(cell.size ?? size)
            .fillColor(cell.color ?? COLOR.ink)
            .text(cell.text, box.left + (cell.indent ?? 0), y + top, { width: box.width - (cell.indent ?? 0), align, characterSpacing: cell.characterSpacing ?? 0 });
        }),
      );
    });
    tr.end();
    y += height;
  };

  for (const row of spec.rows) drawRow(row);
  table.end();
  return y;
}

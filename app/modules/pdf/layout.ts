import PDFDocument from "pdfkit";
import { adminDate } from "../dates/format";
import { FONT, type PdfFonts, pdfFonts } from "./fonts";

/**
 * What the statement and the notice PDFs share (issue 25 §4, decision 041):
 * the A4 page, the palette and type scale, the document's creation (tagged,
 * with its title and language, deterministic), the structure tree's helpers,
 * and the running header and footer.
 *
 * Deterministic bytes: pdfkit dates the document and derives its /ID from the
 * info dictionary (an MD5 of its entries, CreationDate included), so with the
 * dates fixed from the document's own date (a statement's publishedOn, a
 * notice's date) the same input gives the same bytes; the font subsets' tags
 * come from the fonts' ids (F1, F2), not from chance.
 */

/** A4 portrait, in points. */
export const PAGE = { width: 595.28, height: 841.89, margin: 48 } as const;
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
/** The footer's baseline area, inside the bottom margin. */
const FOOTER_Y = PAGE.height - 34;

/** Restrained: ink and greys of the site's slate, the brand's teal for accents, the chart's series colours. */
export const COLOR = {
  ink: "#0f172a",
  body: "#334155",
  muted: "#64748b",
  rule: "#94a3b8",
  hairline: "#e2e8f0",
  band: "#f8fafc",
  brand: "#1a6661",
  brandSoft: "#eef7f6",
  warn: "#92400e",
  warnSoft: "#fffbeb",
  warnRule: "#f59e0b",
  paidIn: "#1a6661",
  distributed: "#d97706",
  nav: "#4f46e5",
} as const;

export const SIZE = { kicker: 7.5, small: 7.5, label: 7.5, body: 8.5, h2: 10, h1: 17, figure: 11 } as const;

export type PdfMeta = { title: string; author: string; subject: string; keywords: string; /** 'YYYY-MM-DD': the document's date, fixed into its info dictionary. */ date: string };

/** "Sep 30, 2026", as the portal's pages write a calendar date. */
export const day = (date: string) => adminDate(new Date(`${date}T12:00:00Z`));

/**
 * A new A4 document: tagged PDF 1.7 in British English, its title shown by
 * readers, DejaVu Sans registered as "Regular" and "Bold", pages buffered for
 * the footers' "Page n of m". No default font (`font: null`), so pdfkit never
 * loads Helvetica's metrics.
 */
export function createPdf(meta: PdfMeta, fonts: PdfFonts): PDFKit.PDFDocument {
  const date = new Date(`${meta.date}T00:00:00Z`);
  const doc = new PDFDocument({
    size: "A4",
    margins: { top: PAGE.margin, bottom: PAGE.margin, left: PAGE.margin, right: PAGE.margin },
    tagged: true,
    lang: "en-GB",
    displayTitle: true,
    pdfVersion: "1.7",
    bufferPages: true,
    font: null as unknown as string,
    info: { Title: meta.title, Author: meta.author, Subject: meta.subject, Keywords: meta.keywords, Creator: meta.author, CreationDate: date, ModDate: date },
  });
  doc.registerFont(FONT.regular, fonts.regular as unknown as PDFKit.Mixins.PDFFontSource);
  doc.registerFont(FONT.bold, fonts.bold as unknown as PDFKit.Mixins.PDFFontSource);
  doc.font(FONT.regular).fontSize(SIZE.body).fillColor(COLOR.ink);
  return doc;
}

/** createPdf with the thread's fonts (parsed at the first document). */
export async function newPdf(meta: PdfMeta): Promise<PDFKit.PDFDocument> {
  return createPdf(meta, await pdfFonts());
}

/**
 * The structure tree (tagged PDF): one Document element, the content added in
 * reading order as headings, paragraphs, tables and a figure; rules, bands and
 * the running header and footer are artifacts.
 */
export class Structure {
  readonly root: PDFKit.PDFStructureElement;
  constructor(private readonly doc: PDFKit.PDFDocument) {
    this.root = doc.struct("Document");
    doc.addStructure(this.root);
  }
  /** `draw`'s content as one element (H1, H2, P, Note…), drawn now. */
  add(type: string, draw: () => void, options: { alt?: string } = {}): void {
    this.root.add(this.doc.struct(type, options, draw));
  }
  /** Decoration: not read out. */
  artifact(draw: () => void, type: "Layout" | "Pagination" = "Layout"): void {
    this.doc.markContent("Artifact", { type });
    draw();
    this.doc.endMarkedContent();
  }
  end(): void {
    this.root.end();
  }
}

/** A horizontal rule across the content. */
export function rule(doc: PDFKit.PDFDocument, y: number, color: string = COLOR.hairline, width = 0.5, x: number = PAGE.margin, length: number = CONTENT_WIDTH): void {
  doc.save().lineWidth(width).strokeColor(color).moveTo(x, y).lineTo(x + length, y).stroke().restore();
}

/** Text at a fixed place, never wrapping into a new page. */
export function put(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number,
  y: number,
  options: { font?: string; size?: number; color?: string; width?: number; align?: "left" | "right" | "center"; characterSpacing?: number } = {},
): void {
  doc
    .font(options.font ?? FONT.regular)
    .fontSize(options.size ?? SIZE.body)
    .fillColor(options.color ?? COLOR.ink)
    .text(text, x, y, { lineBreak: options.width !== undefined, width: options.width, align: options.align ?? "left", characterSpacing: options.characterSpacing ?? 0 });
}

/** The height `text` takes wrapped to `width`. */
export function heightOf(doc: PDFKit.PDFDocument, text: string, width: number, font: string = FONT.regular, size: number = SIZE.body, lineGap = 0): number {
  return doc.font(font).fontSize(size).heightOfString(text, { width, lineGap });
}

/** The running header: the firm's name in the brand's colour, the kind of document at the right, a hairline under both. */
export function runningHeader(doc: PDFKit.PDFDocument, structure: Structure, firm: string, kicker: string): number {
  const y = PAGE.margin - 14;
  structure.artifact(() => {
    put(doc, firm.toUpperCase(), PAGE.margin, y, { font: FONT.bold, size: SIZE.kicker, color: COLOR.brand, characterSpacing: 0.5 });
    put(doc, kicker.toUpperCase(), PAGE.margin, y, { size: SIZE.kicker, color: COLOR.muted, width: CONTENT_WIDTH, align: "right", characterSpacing: 0.5 });
    rule(doc, y + 14, COLOR.brand, 1);
  });
  return y + 30;
}

/**
 * Each page's footer (pages are buffered): the left words, "Page n of m" at
 * the right, over a hairline, inside the bottom margin.
 */
export function footers(doc: PDFKit.PDFDocument, structure: Structure, left: string, pageOf: (n: number, total: number) => string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would start a new page; the margin is put back after.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    structure.artifact(() => {
      rule(doc, FOOTER_Y - 6, COLOR.hairline, 0.5);
      put(doc, left, PAGE.margin, FOOTER_Y, { size: SIZE.small, color: COLOR.muted });
      put(doc, pageOf(i - range.start + 1, range.count), PAGE.margin, FOOTER_Y, { size: SIZE.small, color: COLOR.muted, width: CONTENT_WIDTH, align: "right" });
    }, "Pagination");
    doc.page.margins.bottom = bottom;
  }
}

/** The lowest y content may reach before the footer. */
export const CONTENT_BOTTOM = FOOTER_Y - 16;

/**
 * A label above its value, in columns across the content (the header's
 * entity, quarter, period end…), each a paragraph for screen readers; a
 * `detail` is a small line under the value (the entity's investor id).
 * `weight`s share the width (1 each by default). Returns the y under the row.
 */
export function metaRow(doc: PDFKit.PDFDocument, structure: Structure, y: number, items: { label: string; value: string; detail?: string; weight?: number }[]): number {
  const total = items.reduce((sum, item) => sum + (item.weight ?? 1), 0);
  let x = PAGE.margin;
  let bottom = y;
  for (const item of items) {
    const width = (CONTENT_WIDTH * (item.weight ?? 1)) / total;
    structure.add("P", () => {
      put(doc, item.label, x, y, { size: SIZE.label, color: COLOR.muted });
      doc.font(FONT.bold).fontSize(SIZE.body).fillColor(COLOR.ink).text(item.value, x, y + 11, { width: width - 12, lineGap: 1 });
      if (item.detail) doc.font(FONT.regular).fontSize(SIZE.small).fillColor(COLOR.muted).text(item.detail, x, doc.y + 1, { width: width - 12 });
    });
    bottom = Math.max(bottom, doc.y);
    x += width;
  }
  return bottom;
}

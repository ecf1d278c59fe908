import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { PDFDocument, PDFFont } from "pdf-lib";
import type { PageShape } from "./page-geometry.server";

/**
 * The stamp PDF qpdf lays over the stored file: one small page per page shape,
 * each with three lines of real (searchable, copyable) text along the page's
 * diagonal, centred, light grey at low opacity so the content stays readable.
 * The text is DejaVu Sans, embedded as a subset, so any Latin, Greek or
 * Cyrillic name can be stamped (Helvetica stops at WinAnsi: "Ł" throws).
 *
 * pdf-lib and fontkit (hundreds of modules, about half a second of a server's
 * start) load at the first stamp, not when the server starts.
 */

export type StampLines = [title: string, recipient: string, time: string];

/** Light grey (pdf-lib's rgb 0.45). */
const GREY_LEVEL = 0.45;
const OPACITY = 0.18;
/** The widest line takes at most this share of the diagonal. */
const MAX_LINE_SHARE = 0.7;
/** Font sizes, as a share of the diagonal, when the lines are short. */
const TITLE_SHARE = 1 / 22;
const BODY_SHARE = 1 / 38;
/** DejaVu Sans: ascent ≈ 0.76 em above the baseline, descent ≈ 0.24 em below. */
const ASCENT = 0.76;
const GAP = 0.35;

/**
 * The font file, found from the installed `dejavu-fonts-ttf` package. Resolved
 * from this module's URL at run time, which works both from the sources and
 * from the bundled server (build/server/…), since node_modules is installed
 * next to it in production.
 */
function fontPath(): string {
  const requireFromHere = createRequire(import.meta.url);
  return path.join(path.dirname(requireFromHere.resolve("dejavu-fonts-ttf/package.json")), "ttf", "DejaVuSans.ttf");
}

type PdfLib = typeof import("pdf-lib");

type Fontkit = Parameters<PDFDocument["registerFontkit"]>[0];

let pdfLib: Promise<{ lib: PdfLib; fontkit: Fontkit }> | undefined;

function loadPdfLib() {
  pdfLib ??= Promise.all([import("pdf-lib"), import("@pdf-lib/fontkit")]).then(([lib, fontkit]) => ({
    lib,
    // A CommonJS module: its exports are the default export when imported from ES modules.
    fontkit: ((fontkit as { default?: Fontkit }).default ?? fontkit) as Fontkit,
  }));
  return pdfLib;
}

let fontBytes: Promise<Buffer> | undefined;

function loadFont(): Promise<Buffer> {
  fontBytes ??= readFile(fontPath()).catch((error: unknown) => {
    fontBytes = undefined;
    throw error;
  });
  return fontBytes;
}

/** Line breaks and other control characters would split or garble a line. */
export function cleanStampText(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function drawStamp(lib: PdfLib, page: ReturnType<PDFDocument["addPage"]>, shape: PageShape, font: PDFFont, lines: StampLines) {
  const { width, height } = shape;
  const angle = Math.atan2(height, width);
  const diagonal = Math.hypot(width, height);
  const [title, ...body] = lines;

  const widestBody = Math.max(...body.map((line) => font.widthOfTextAtSize(line, 1)), 1);
  const bodySize = Math.min(diagonal * BODY_SHARE, (diagonal * MAX_LINE_SHARE) / widestBody);
  const titleSize = Math.min(diagonal * TITLE_SHARE, (diagonal * MAX_LINE_SHARE) / Math.max(font.widthOfTextAtSize(title, 1), 1));

  const sized = [
    { text: title, size: titleSize },
    ...body.map((text) => ({ text, size: bodySize })),
  ];
  const gap = GAP * bodySize;
  const blockHeight = sized.reduce((sum, line) => sum + line.size, 0) + gap * (sized.length - 1);

  // Along the diagonal (u) and across it (n), from the page's centre.
  const u = { x: Math.cos(angle), y: Math.sin(angle) };
  const n = { x: -Math.sin(angle), y: Math.cos(angle) };
  let top = blockHeight / 2;
  for (const line of sized) {
    const baseline = top - ASCENT * line.size;
    const along = -font.widthOfTextAtSize(line.text, line.size) / 2;
    page.drawText(line.text, {
      x: width / 2 + along * u.x + baseline * n.x,
      y: height / 2 + along * u.y + baseline * n.y,
      size: line.size,
      font,
      color: lib.rgb(GREY_LEVEL, GREY_LEVEL, GREY_LEVEL),
      opacity: OPACITY,
      rotate: lib.degrees((angle * 180) / Math.PI),
    });
    top -= line.size + gap;
  }
}

/** A PDF with one stamp page per shape, in order. */
export async function buildStampPdf(shapes: PageShape[], lines: StampLines): Promise<Uint8Array> {
  const { lib, fontkit } = await loadPdfLib();
  const doc = await lib.PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(await loadFont(), { subset: true });
  const clean = lines.map(cleanStampText) as StampLines;
  for (const shape of shapes) {
    drawStamp(lib, doc.addPage([shape.width, shape.height]), shape, font, clean);
  }
  return doc.save({ useObjectStreams: false, updateFieldAppearances: false });
}

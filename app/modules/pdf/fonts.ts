import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { create } from "fontkit";

/**
 * The PDFs' fonts (issue 25 §4): DejaVu Sans and DejaVu Sans Bold from the
 * `dejavu-fonts-ttf` package the project depends on, embedded and subset by
 * pdfkit (only the glyphs a document uses). Never pdfkit's standard 14 fonts:
 * their metrics load from files a bundle does not carry, they are not
 * embedded, and they stop at WinAnsi ("Ł" would not print).
 *
 * Parsed once per thread, not once per document: given a font file, pdfkit
 * has fontkit parse it again for every document, which was 90 % of a
 * statement's time (about a second each). pdfkit also takes a font fontkit has
 * already parsed, so the PDF worker parses the two files at its first job and
 * hands the same two fonts to every document (what pdfkit keeps per document,
 * the subset of glyphs used, it makes afresh each time). fontkit is pinned
 * at the version pdfkit depends on, so both use the one installed copy.
 *
 * The files are found from this module's URL at run time, which works from
 * the sources (tsx, Vitest, the Vite dev server) and from the compiled server
 * (build/server/…), since node_modules is installed next to it.
 */

/** A font parsed by fontkit: what pdfkit's font() and registerFont() take besides a file. */
export type ParsedFont = { postscriptName: string; layout: (...args: never[]) => unknown };
export type PdfFonts = { regular: ParsedFont; bold: ParsedFont };

/** The names the documents register the fonts under (doc.font("Regular")). */
export const FONT = { regular: "Regular", bold: "Bold" } as const;

const requireFromHere = createRequire(import.meta.url);

function fontDirectory(): string {
  return path.join(path.dirname(requireFromHere.resolve("dejavu-fonts-ttf/package.json")), "ttf");
}

let fonts: Promise<PdfFonts> | undefined;

/** The two fonts, parsed at the first call of the thread. */
export function pdfFonts(): Promise<PdfFonts> {
  fonts ??= Promise.resolve().then(() => {
    const directory = fontDirectory();
    const parse = (file: string) => create(fs.readFileSync(path.join(directory, file))) as unknown as ParsedFont;
    return { regular: parse("DejaVuSans.ttf"), bold: parse("DejaVuSans-Bold.ttf") };
  });
  return fonts;
}

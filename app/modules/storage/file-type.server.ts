import { open } from "node:fs/promises";
import yauzl from "yauzl";

/**
 * What a file really is, read from its bytes (SPEC.md §5, DESIGN.md §5):
 * PDF by its magic, Word/Excel/PowerPoint 97–2003 by the OLE2 container
 * signature, and the OOXML formats as a zip holding the matching main part.
 */
export type ContentKind = "pdf" | "ole2" | "docx" | "xlsx" | "pptx";

/** The allowed MIME types, each with the content it must have. */
export const ALLOWED_TYPES: Readonly<Record<string, ContentKind>> = {
  "application/pdf": "pdf",
  "application/msword": "ole2",
  "application/vnd.ms-excel": "ole2",
  "application/vnd.ms-powerpoint": "ole2",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
};

const PDF_MAGIC = Buffer.from("%PDF-", "latin1");
const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

const OOXML_MAIN_PARTS: Record<string, ContentKind> = {
  "word/document.xml": "docx",
  "xl/workbook.xml": "xlsx",
  "ppt/presentation.xml": "pptx",
};

/** Stop looking after this many zip entries (a real document has far fewer before its main part). */
const MAX_ZIP_ENTRIES = 5000;

async function readHead(filePath: string, length: number): Promise<Buffer> {
  const handle = await open(filePath, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The OOXML kind of a zip: which main part it holds next to [Content_Types].xml, if any. */
function ooxmlKind(filePath: string): Promise<ContentKind | null> {
  return new Promise((resolve) => {
    yauzl.open(filePath, { lazyEntries: true, autoClose: true, validateEntrySizes: false }, (error, zip) => {
      if (error || !zip) return resolve(null);
      let seen = 0;
      let hasContentTypes = false;
      let kind: ContentKind | null = null;
      const done = (value: ContentKind | null) => {
        zip.close();
        resolve(value);
      };
      zip.on("entry", (entry: yauzl.Entry) => {
        seen += 1;
        if (entry.fileName === "[Content_Types].xml") hasContentTypes = true;
        kind ??= OOXML_MAIN_PARTS[entry.fileName] ?? null;
        if (hasContentTypes && kind) return done(kind);
        if (seen >= MAX_ZIP_ENTRIES) return done(null);
        zip.readEntry();
      });
      zip.on("end", () => done(null));
      zip.on("error", () => done(null));
      zip.readEntry();
    });
  });
}

/** Read the file's kind from its content; null when it is none of the allowed ones. */
export async function detectContentKind(filePath: string): Promise<ContentKind | null> {
  const head = await readHead(filePath, 8);
  if (head.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)) return "pdf";
  if (head.subarray(0, OLE2_MAGIC.length).equals(OLE2_MAGIC)) return "ole2";
  if (head.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) return ooxmlKind(filePath);
  return null;
}

/** The normalized MIME type when the declared type is allowed and the content matches it, else null. */
export async function checkFileType(filePath: string, declaredMime: string): Promise<string | null> {
  const mime = declaredMime.split(";")[0]!.trim().toLowerCase();
  const expected = ALLOWED_TYPES[mime];
  if (!expected) return null;
  return (await detectContentKind(filePath)) === expected ? mime : null;
}

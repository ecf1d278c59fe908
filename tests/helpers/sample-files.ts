import { Buffer } from "node:buffer";
import yazl from "yazl";

/**
 * Small but real documents of every allowed type, made in the test: a valid
 * PDF, OLE2 containers (the Word/Excel/PowerPoint 97–2003 signature), and
 * OOXML zips with [Content_Types].xml and the matching main part.
 */

export const MIME = {
  pdf: "application/pdf",
  doc: "application/msword",
  xls: "application/vnd.ms-excel",
  ppt: "application/vnd.ms-powerpoint",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
} as const;

export type SampleKind = keyof typeof MIME;

/** A one-page PDF with the given text; `padTo` grows it (with a PDF comment) to an exact byte size. */
export function samplePdf(text = "Lumen Ridge test document", padTo?: number): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text.replace(/[()\\]/g, "")}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  const pdf = Buffer.from(body, "latin1");
  if (padTo === undefined || padTo <= pdf.length) return pdf;
  // A PDF comment line of filler before the header's end keeps it a PDF of exactly padTo bytes.
  const filler = Buffer.alloc(padTo - pdf.length, 0x20);
  filler[filler.length - 1] = 0x0a;
  return Buffer.concat([pdf, filler]);
}

/** An OLE2 compound file header (the 97–2003 Office container signature) plus a few sectors. */
export function sampleOle2(): Buffer {
  const file = Buffer.alloc(3 * 512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(file, 0);
  file.writeUInt16LE(0x003e, 24); // minor version
  file.writeUInt16LE(0x0003, 26); // major version 3
  file.writeUInt16LE(0xfffe, 28); // little-endian byte order mark
  file.writeUInt16LE(9, 30); // 512-byte sectors
  file.writeUInt16LE(6, 32);
  return file;
}

const MAIN_PART = { docx: "word/document.xml", xlsx: "xl/workbook.xml", pptx: "ppt/presentation.xml" } as const;

/** A zip of the given entries. */
export function zipOf(entries: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name);
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (c: Buffer) => chunks.push(c));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

/** A minimal OOXML package of the kind: [Content_Types].xml, _rels/.rels and its main part. */
export function sampleOoxml(kind: keyof typeof MAIN_PART): Promise<Buffer> {
  return zipOf({
    "[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/${MAIN_PART[kind]}" ContentType="${MIME[kind]}.main+xml"/></Types>`,
    "_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${MAIN_PART[kind]}"/></Relationships>`,
    [MAIN_PART[kind]]: `<?xml version="1.0" encoding="UTF-8"?><root/>`,
  });
}

/** A real sample of each allowed kind, with its MIME type and a file name. */
export async function sampleFile(kind: SampleKind): Promise<{ bytes: Buffer; mime: string; name: string }> {
  const bytes =
    kind === "pdf" ? samplePdf() : kind === "doc" || kind === "xls" || kind === "ppt" ? sampleOle2() : await sampleOoxml(kind);
  return { bytes, mime: MIME[kind], name: `sample.${kind}` };
}

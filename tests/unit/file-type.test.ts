import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { ALLOWED_TYPES, checkFileType, detectContentKind } from "~/modules/storage/file-type.server";
import { MIME, sampleOle2, sampleOoxml, samplePdf, zipOf, type SampleKind } from "../helpers/sample-files";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lumen-ridge-file-type-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let counter = 0;
/** Write bytes to a fresh temporary file (as an upload lands in incoming/) and return its path. */
function onDisk(bytes: Uint8Array | string): string {
  counter += 1;
  const file = path.join(dir, `upload-${counter}.part`);
  fs.writeFileSync(file, bytes);
  return file;
}

async function sampleBytes(kind: SampleKind): Promise<Buffer> {
  if (kind === "pdf") return samplePdf();
  if (kind === "doc" || kind === "xls" || kind === "ppt") return sampleOle2();
  return sampleOoxml(kind);
}

const MAIN_PARTS = { docx: "word/document.xml", xlsx: "xl/workbook.xml", pptx: "ppt/presentation.xml" } as const;
const CONTENT_TYPES = '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

describe("detectContentKind", () => {
  it.each([
    ["a PDF", () => samplePdf(), "pdf"],
    ["an OLE2 (Office 97–2003) container", () => sampleOle2(), "ole2"],
    ["a Word document (docx)", () => sampleOoxml("docx"), "docx"],
    ["an Excel workbook (xlsx)", () => sampleOoxml("xlsx"), "xlsx"],
    ["a PowerPoint deck (pptx)", () => sampleOoxml("pptx"), "pptx"],
  ] as const)("recognises %s", async (_label, make, kind) => {
    expect(await detectContentKind(onDisk(await make()))).toBe(kind);
  });

  it("finds the main part wherever it sits in the zip", async () => {
    const zip = await zipOf({ "docProps/core.xml": "<core/>", "xl/workbook.xml": "<workbook/>", "xl/styles.xml": "<s/>", "[Content_Types].xml": CONTENT_TYPES });
    expect(await detectContentKind(onDisk(zip))).toBe("xlsx");
  });

  it.each([
    ["an HTML page", "<!DOCTYPE html><html><script>alert(1)</script></html>"],
    ["a Windows executable", Buffer.concat([Buffer.from("MZ"), Buffer.alloc(510)])],
    ["plain text", "Quarterly report\n"],
    ["an empty file", ""],
    ["a file shorter than any signature", "%PD"],
    ["'%PDF' without the dash", "%PDF1.4 not really"],
    ["a PDF signature not at the start", `  ${samplePdf().toString("latin1")}`],
    ["a zip signature followed by garbage", Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(300, 0xab)])],
    ["only the zip signature", Buffer.from([0x50, 0x4b, 0x03, 0x04])],
  ])("recognises nothing in %s", async (_label, bytes) => {
    expect(await detectContentKind(onDisk(bytes))).toBeNull();
  });

  it("a zip of other things is not an Office document", async () => {
    expect(await detectContentKind(onDisk(await zipOf({ "readme.txt": "hello", "payload.exe": "MZ" })))).toBeNull();
  });

  it.each(Object.entries(MAIN_PARTS))("a %s main part without [Content_Types].xml is not enough", async (_kind, part) => {
    expect(await detectContentKind(onDisk(await zipOf({ [part]: "<root/>" })))).toBeNull();
  });

  it("[Content_Types].xml without any main part is not enough", async () => {
    expect(await detectContentKind(onDisk(await zipOf({ "[Content_Types].xml": CONTENT_TYPES, "docProps/app.xml": "<a/>" })))).toBeNull();
  });

  it("gives up on a zip with thousands of entries before its main part", async () => {
    /** [Content_Types].xml, `fillers` empty entries, then word/document.xml; stored, not deflated (quick to make). */
    async function docxAfter(fillers: number): Promise<Buffer> {
      const zip = new yazl.ZipFile();
      zip.addBuffer(Buffer.from(CONTENT_TYPES), "[Content_Types].xml", { compress: false });
      for (let i = 0; i < fillers; i++) zip.addBuffer(Buffer.alloc(0), `filler/${i}.xml`, { compress: false });
      zip.addBuffer(Buffer.from("<w/>"), "word/document.xml", { compress: false });
      zip.end();
      const chunks: Buffer[] = [];
      for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
      return Buffer.concat(chunks);
    }
    expect(await detectContentKind(onDisk(await docxAfter(10)))).toBe("docx");
    expect(await detectContentKind(onDisk(await docxAfter(5000)))).toBeNull();
  });
});

describe("checkFileType", () => {
  it("allows exactly PDF, Word, Excel and PowerPoint (old and new formats)", () => {
    expect(Object.keys(ALLOWED_TYPES).sort()).toEqual(Object.values(MIME).sort());
  });

  it.each(Object.keys(MIME) as SampleKind[])("accepts a real %s declared with its own type", async (kind) => {
    expect(await checkFileType(onDisk(await sampleBytes(kind)), MIME[kind])).toBe(MIME[kind]);
  });

  it.each([
    ["application/pdf; charset=binary", "application/pdf"],
    ["Application/PDF", "application/pdf"],
    ["  application/pdf  ", "application/pdf"],
  ])("normalises the declared type %j to %j", async (declared, normalized) => {
    expect(await checkFileType(onDisk(samplePdf()), declared)).toBe(normalized);
  });

  it.each([
    ["PDF bytes declared as Word (doc)", "pdf", MIME.doc],
    ["PDF bytes declared as docx", "pdf", MIME.docx],
    ["an OLE2 file declared as PDF", "doc", MIME.pdf],
    ["an OLE2 file declared as docx", "xls", MIME.docx],
    ["a docx declared as PDF", "docx", MIME.pdf],
    ["a docx declared as xlsx", "docx", MIME.xlsx],
    ["an xlsx declared as pptx", "xlsx", MIME.pptx],
    ["a pptx declared as the old PowerPoint type", "pptx", MIME.ppt],
  ] as const)("refuses %s", async (_label, kind, declared) => {
    expect(await checkFileType(onDisk(await sampleBytes(kind)), declared)).toBeNull();
  });

  it.each(["", "text/html", "text/plain", "application/octet-stream", "application/zip", "application/x-msdownload", "image/svg+xml"])(
    "refuses a type not on the list (%j), whatever the content",
    async (declared) => {
      expect(await checkFileType(onDisk(samplePdf()), declared)).toBeNull();
      expect(await checkFileType(onDisk(await sampleOoxml("docx")), declared)).toBeNull();
    },
  );

  it("refuses HTML and executables declared as PDF", async () => {
    expect(await checkFileType(onDisk("<html><body>hi</body></html>"), MIME.pdf)).toBeNull();
    expect(await checkFileType(onDisk(Buffer.concat([Buffer.from("MZ"), Buffer.alloc(200)])), MIME.pdf)).toBeNull();
  });
});

import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { storageRoot } from "~/modules/storage/storage.server";
import { readFlash } from "~/modules/toast/flash.server";
import { action as pageAction, loader as pageLoader } from "~/routes/admin/documents";
import { loader as uploadPageLoader } from "~/routes/admin/documents-upload";
import { action as documentsAction } from "~/routes/api/documents";
import { loader as fileLoader } from "~/routes/api/document-file";
import {
  absoluteStored,
  allDocuments,
  clearDocuments,
  filesUnder,
  rawMultipartRequest,
  storedFiles,
  uploadRequest,
  type UploadFile,
} from "../helpers/documents";
import { expectRedirect, requestWithCookie } from "../helpers/http";
import { MIME, sampleFile, sampleOle2, sampleOoxml, samplePdf, zipOf, type SampleKind } from "../helpers/sample-files";
import { ORIGIN, apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

const MB50 = 50 * 1024 * 1024;
const FILE_TYPE_ERROR = "File type must be PDF, Word, Excel, or PowerPoint";
const TOO_LARGE = "File size must be less than 50MB";
const STORED_NAME = /^documents\/[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type LpDocumentJson = {
  id: string;
  title: string;
  description: string | null;
  category: string;
  fileName: string;
  fileSize: string;
  createdAt: string;
};
type ErrorJson = { error: string; fields?: Record<string, string[]> };

let admin: LpUser;
let adminCookie: string;
let investorCookie: string;

beforeAll(async () => {
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  adminCookie = await sessionCookieFor(admin);
  investorCookie = await sessionCookieFor(await insertUser({ status: "approved", name: "Ivy Investor" }));
});
beforeEach(() => {
  clearDocuments();
});
afterEach(() => {
  vi.restoreAllMocks();
});

// 50 MB buffers are made once per file, on first use.
let exactLimitPdf: Buffer | undefined;
let overLimitPdf: Buffer | undefined;
const pdfOfExactlyTheLimit = () => (exactLimitPdf ??= samplePdf("Exactly fifty megabytes", MB50));
const pdfOneByteOverTheLimit = () => (overLimitPdf ??= samplePdf("One byte too many", MB50 + 1));

const pdf = (name = "q3-report.pdf", bytes: Buffer = samplePdf()): UploadFile => ({ bytes, name, type: MIME.pdf });

/** POST /api/documents through the route action; `cookie: null` sends no cookie, by default the admin's. */
function postUpload(
  file: UploadFile | undefined,
  fields: Record<string, string> = { title: "Q3 2026 Report" },
  cookie: string | null = adminCookie,
) {
  return callRouteWith(documentsAction, uploadRequest("/api/documents", { fields, file, cookie: cookie ?? undefined }));
}

function postRaw(request: Request) {
  return callRouteWith(documentsAction, request);
}

/** After a refusal: no documents row, and not a single file anywhere under STORAGE_DIR. */
function expectNothingStored() {
  expect(allDocuments()).toEqual([]);
  expect(storedFiles()).toEqual([]);
  expect(filesUnder(path.join(storageRoot(), "incoming"))).toEqual([]);
  expect(filesUnder(path.join(storageRoot(), "documents"))).toEqual([]);
}

/** The one stored document: its row, checked to point at the one file under documents/. */
function theStoredDocument() {
  const rows = allDocuments();
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  expect(row.filePath).toMatch(STORED_NAME);
  expect(storedFiles()).toEqual([row.filePath]);
  return row;
}

async function expectRefused(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as ErrorJson;
  expect(body.error).toBe(error);
  expectNothingStored();
  return body;
}

describe("POST /api/documents: accepted uploads", () => {
  it.each<[SampleKind, string]>([
    ["pdf", "Q3 2026 Report.pdf"],
    ["doc", "Side letter.doc"],
    ["xls", "Capital account.xls"],
    ["ppt", "Annual meeting.ppt"],
    ["docx", "Subscription agreement.docx"],
    ["xlsx", "Portfolio metrics.xlsx"],
    ["pptx", "LP update deck.pptx"],
  ])("accepts a %s: 201 with the LP document, the bytes stored under a server-made name", async (kind, name) => {
    const sample = await sampleFile(kind);
    const response = await postUpload({ bytes: sample.bytes, name, type: sample.mime });
    expect(response.status).toBe(201);
    const body = (await response.json()) as LpDocumentJson;

    const row = theStoredDocument();
    expect(body).toEqual({
      id: row.id,
      title: "Q3 2026 Report",
      description: null,
      category: "fund_documents",
      fileName: name,
      fileSize: String(sample.bytes.byteLength),
      createdAt: row.createdAt.toISOString(),
      audience: "all",
      watermark: false,
      recipientIds: [],
      recipientEntityIds: [],
    });
    expect(body.id).toMatch(UUID);
    expect(body.fileSize).toMatch(/^\d+$/);
    expect(row.uploadedBy).toBe(admin.id);
    expect(row.mimeType).toBe(sample.mime);
    expect(row.fileSize).toBe(sample.bytes.byteLength);
    // The original name is only metadata: the file on disk is named by the server.
    expect(row.filePath).not.toContain(name);
    expect(fs.readFileSync(absoluteStored(row.filePath)).equals(sample.bytes)).toBe(true);
  });

  it("keeps the description and category given, trimming the text fields", async () => {
    const response = await postUpload(pdf(), {
      title: "  Annual letter  ",
      description: "  A letter to our limited partners ",
      category: "newsletters",
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as LpDocumentJson;
    expect(body).toMatchObject({ title: "Annual letter", description: "A letter to our limited partners", category: "newsletters" });
    expect(theStoredDocument()).toMatchObject({ title: "Annual letter", category: "newsletters" });
  });

  it("treats an empty category and description as not given (fund_documents, no description)", async () => {
    const response = await postUpload(pdf(), { title: "Report", description: "", category: "" });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ description: null, category: "fund_documents" });
  });

  it("accepts the file part before the text fields", async () => {
    const sample = samplePdf("file first");
    const response = await postRaw(
      rawMultipartRequest(
        "/api/documents",
        [
          { name: "file", filename: "first.pdf", type: MIME.pdf, bytes: sample },
          { name: "title", value: "File first" },
        ],
        { cookie: adminCookie },
      ),
    );
    expect(response.status).toBe(201);
    const row = theStoredDocument();
    expect(row.title).toBe("File first");
    expect(fs.readFileSync(absoluteStored(row.filePath)).equals(sample)).toBe(true);
  });

  it("a part type in capitals and with parameters is still the same type", async () => {
    const response = await postRaw(
      rawMultipartRequest(
        "/api/documents",
        [
          { name: "title", value: "Capitals" },
          { name: "file", filename: "a.pdf", type: "Application/PDF; name=a.pdf", bytes: samplePdf() },
        ],
        { cookie: adminCookie },
      ),
    );
    expect(response.status).toBe(201);
    expect(theStoredDocument().mimeType).toBe("application/pdf");
  });

  it("accepts a file of exactly 50 MB (52428800 bytes)", { timeout: 60_000 }, async () => {
    const bytes = pdfOfExactlyTheLimit();
    expect(bytes.byteLength).toBe(52_428_800);
    // As a real client sends it: with a Content-Length (file plus multipart framing).
    const request = rawMultipartRequest(
      "/api/documents",
      [
        { name: "title", value: "Fifty" },
        { name: "file", filename: "fifty.pdf", type: MIME.pdf, bytes },
      ],
      { cookie: adminCookie },
    );
    expect(Number(request.headers.get("Content-Length"))).toBeGreaterThan(52_428_800);
    const response = await postRaw(request);
    expect(response.status).toBe(201);
    expect(((await response.json()) as LpDocumentJson).fileSize).toBe("52428800");
    const row = theStoredDocument();
    expect(fs.statSync(absoluteStored(row.filePath)).size).toBe(52_428_800);
    expect(fs.readFileSync(absoluteStored(row.filePath)).equals(bytes)).toBe(true);
  });
});

describe("POST /api/documents: refused uploads leave nothing behind", () => {
  const html = Buffer.from("<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>\n");
  const windowsExe = () => {
    const exe = Buffer.alloc(1024);
    exe.write("MZ", 0, "latin1");
    exe.write("This program cannot be run in DOS mode.", 0x4e, "latin1");
    exe.write("PE\0\0", 0x80, "latin1");
    exe.writeUInt32LE(0x80, 0x3c);
    return exe;
  };

  it.each<[string, () => Promise<UploadFile>]>([
    ["an HTML page renamed .pdf, declared application/pdf", async () => ({ bytes: html, name: "report.pdf", type: MIME.pdf })],
    ["a Windows executable (MZ) named .pdf", async () => ({ bytes: windowsExe(), name: "invoice.pdf", type: MIME.pdf })],
    ["PDF bytes declared as a Word document (docx)", async () => ({ bytes: samplePdf(), name: "report.docx", type: MIME.docx })],
    ["a docx declared as application/pdf", async () => ({ bytes: await sampleOoxml("docx"), name: "report.pdf", type: MIME.pdf })],
    ["a docx declared as an Excel workbook (xlsx)", async () => ({ bytes: await sampleOoxml("docx"), name: "book.xlsx", type: MIME.xlsx })],
    ["an OLE2 file declared as application/pdf", async () => ({ bytes: sampleOle2(), name: "old.pdf", type: MIME.pdf })],
    [
      "a zip without the main part, declared as docx",
      async () => ({
        bytes: await zipOf({
          "[Content_Types].xml": '<?xml version="1.0"?><Types/>',
          "docProps/app.xml": "<Properties/>",
          "payload.exe": "MZ",
        }),
        name: "report.docx",
        type: MIME.docx,
      }),
    ],
    [
      "a zip with word/document.xml but no [Content_Types].xml, declared as docx",
      async () => ({ bytes: await zipOf({ "word/document.xml": "<w/>" }), name: "report.docx", type: MIME.docx }),
    ],
    [
      "a broken zip (signature, then garbage), declared as docx",
      async () => ({ bytes: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]), name: "x.docx", type: MIME.docx }),
    ],
    ["a real PDF with an unlisted type (text/html)", async () => ({ bytes: samplePdf(), name: "report.pdf", type: "text/html" })],
    ["a real PDF as application/octet-stream", async () => ({ bytes: samplePdf(), name: "report.pdf", type: "application/octet-stream" })],
  ])("refuses %s: 400 with the file type message", async (_label, make) => {
    const body = await expectRefused(await postUpload(await make()), 400, FILE_TYPE_ERROR);
    expect(body.fields).toEqual({ file: [FILE_TYPE_ERROR] });
  });

  it.each([
    ["missing", {}],
    ["empty", { title: "" }],
    ["blank", { title: "   \t " }],
  ])("refuses a %s title: 400 'Title is required'", async (_label, fields: Record<string, string>) => {
    const body = await expectRefused(await postUpload(pdf(), fields), 400, "Title is required");
    expect(body.fields).toEqual({ title: ["Title is required"] });
  });

  it("refuses a title over 200 characters", async () => {
    await expectRefused(await postUpload(pdf(), { title: "T".repeat(201) }), 400, "Title must be at most 200 characters");
  });

  it("refuses a category that is not one of the LP categories", async () => {
    const body = await expectRefused(
      await postUpload(pdf(), { title: "Report", category: "secret_stuff" }),
      400,
      "Choose one of the listed categories",
    );
    expect(body.fields).toEqual({ category: ["Choose one of the listed categories"] });
  });

  it("refuses a form without a file: 400 'File is required'", async () => {
    const body = await expectRefused(await postUpload(undefined), 400, "File is required");
    expect(body.fields).toEqual({ file: ["File is required"] });
  });

  it("refuses the empty file part a browser sends when no file was chosen: 'File is required'", async () => {
    const response = await postRaw(
      rawMultipartRequest(
        "/api/documents",
        [
          { name: "title", value: "Report" },
          { name: "file", filename: "", type: "application/octet-stream", bytes: new Uint8Array() },
        ],
        { cookie: adminCookie },
      ),
    );
    await expectRefused(response, 400, "File is required");
  });

  it("reports every problem at once (no title and no file)", async () => {
    const body = await expectRefused(await postUpload(undefined, {}), 400, "Title is required");
    expect(body.fields).toEqual({ title: ["Title is required"], file: ["File is required"] });
  });

  it("refuses a file of 0 bytes", async () => {
    const body = await expectRefused(await postUpload(pdf("empty.pdf", Buffer.alloc(0))), 400, "The file is empty");
    expect(body.fields).toEqual({ file: ["The file is empty"] });
  });

  it("refuses a file under another field name ('File is required'), without writing it", async () => {
    const response = await postRaw(
      rawMultipartRequest(
        "/api/documents",
        [
          { name: "title", value: "Report" },
          { name: "attachment", filename: "report.pdf", type: MIME.pdf, bytes: samplePdf() },
        ],
        { cookie: adminCookie },
      ),
    );
    await expectRefused(response, 400, "File is required");
  });

  it("refuses two files in one upload", async () => {
    const response = await postRaw(
      rawMultipartRequest(
        "/api/documents",
        [
          { name: "title", value: "Two at once" },
          { name: "file", filename: "one.pdf", type: MIME.pdf, bytes: samplePdf("one") },
          { name: "file", filename: "two.pdf", type: MIME.pdf, bytes: samplePdf("two") },
        ],
        { cookie: adminCookie },
      ),
    );
    await expectRefused(response, 400, "Upload one file at a time");
  });

  it("refuses a body cut off before the closing boundary", async () => {
    const response = await postRaw(
      rawMultipartRequest(
        "/api/documents",
        [
          { name: "title", value: "Cut off" },
          { name: "file", filename: "cut.pdf", type: MIME.pdf, bytes: samplePdf("cut", 64 * 1024) },
        ],
        { cookie: adminCookie, close: false },
      ),
    );
    await expectRefused(response, 400, "The upload could not be read. Please try again.");
  });

  it("a client that disconnects mid-upload leaves nothing behind", async () => {
    const boundary = "----lumen-abort";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nAborted\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const chunk = samplePdf("partial", 256 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent === 1) controller.enqueue(new Uint8Array(head));
        else if (sent <= 4) controller.enqueue(new Uint8Array(chunk));
        else controller.error(new Error("client went away"));
      },
    });
    const request = new Request(`${ORIGIN}/api/documents`, {
      method: "POST",
      headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, Cookie: adminCookie },
      body,
      duplex: "half",
    } as RequestInit);
    const response = await postRaw(request);
    expect(response.status).toBe(400);
    expectNothingStored();
  });

  it("refuses 50 MB + 1 byte: 413 'File size must be less than 50MB'", { timeout: 60_000 }, async () => {
    const bytes = pdfOneByteOverTheLimit();
    expect(bytes.byteLength).toBe(52_428_801);
    const viaFormData = await expectRefused(await postUpload(pdf("too-big.pdf", bytes)), 413, TOO_LARGE);
    expect(viaFormData.fields).toEqual({ file: [TOO_LARGE] });
    // With a true Content-Length too (within the framing allowance, so the streaming count decides).
    const request = rawMultipartRequest(
      "/api/documents",
      [
        { name: "title", value: "Too big" },
        { name: "file", filename: "too-big.pdf", type: MIME.pdf, bytes },
      ],
      { cookie: adminCookie },
    );
    await expectRefused(await postRaw(request), 413, TOO_LARGE);
  });

  it("refuses a body whose declared Content-Length is far over the limit, before reading it", async () => {
    const request = rawMultipartRequest("/api/documents", [{ name: "title", value: "Huge" }], { cookie: adminCookie });
    request.headers.set("Content-Length", String(80 * 1024 * 1024));
    await expectRefused(await postRaw(request), 413, TOO_LARGE);
  });

  it.each([
    ["JSON", apiRequest("POST", "/api/documents", { json: { title: "Report", file: "JVBERi0xLjQ=" } })],
    [
      "a urlencoded form (a form without enctype)",
      new Request(`${ORIGIN}/api/documents`, { method: "POST", body: new URLSearchParams({ title: "Report", file: "report.pdf" }) }),
    ],
  ])("answers a non-multipart body (%s) with 415", async (_label, request) => {
    request.headers.set("Cookie", adminCookie);
    await expectRefused(await postRaw(request), 415, "Content-Type must be multipart/form-data");
  });

  it.each([
    ["a boundary with a body that is not multipart", "multipart/form-data; boundary=xyz", "just some text"],
    ["no boundary at all", "multipart/form-data; charset=utf-8", "--xyz\r\n"],
    ["an empty body", "multipart/form-data; boundary=xyz", null],
  ])("answers a broken multipart request (%s) with 400, not a server error", async (_label, contentType, body) => {
    const request = new Request(`${ORIGIN}/api/documents`, {
      method: "POST",
      headers: { "Content-Type": contentType, Cookie: adminCookie },
      body,
    });
    const response = await postRaw(request);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorJson).error).toEqual(expect.any(String));
    expectNothingStored();
  });

  it("answers another multipart type (multipart/mixed) with 415", async () => {
    const request = rawMultipartRequest("/api/documents", [{ name: "title", value: "Mixed" }], { cookie: adminCookie });
    request.headers.set("Content-Type", request.headers.get("Content-Type")!.replace("form-data", "mixed"));
    await expectRefused(await postRaw(request), 415, "Content-Type must be multipart/form-data");
  });

  it("refuses an approved investor with 403 and writes no file", async () => {
    const body = await expectRefused(await postUpload(pdf(), { title: "Sneaky" }, investorCookie), 403, "Admin access required");
    expect(body).toEqual({ error: "Admin access required" });
  });

  it("refuses an anonymous upload with 401 and writes no file", async () => {
    await expectRefused(await postUpload(pdf(), { title: "Sneaky" }, null), 401, "Authentication required");
  });
});

describe("POST /api/documents: hostile file names", () => {
  const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
  const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

  /** Upload a PDF under a name part; returns the stored row after checking what every stored name must be. */
  async function uploadNamed(part: { filename?: string; filenameStar?: string }) {
    const bytes = samplePdf("hostile name");
    const response = await postRaw(
      rawMultipartRequest(
        "/api/documents",
        [
          { name: "title", value: "Hostile name" },
          { name: "file", type: MIME.pdf, bytes, ...part },
        ],
        { cookie: adminCookie },
      ),
    );
    expect(response.status).toBe(201);
    const body = (await response.json()) as LpDocumentJson;
    const row = theStoredDocument();
    expect(body.fileName).toBe(row.fileName);
    expect(row.fileName).not.toMatch(/[/\\]/);
    expect(row.fileName).not.toMatch(CONTROL);
    expect(row.fileName).not.toMatch(BIDI);
    expect(Array.from(row.fileName).length).toBeLessThanOrEqual(255);
    expect(row.fileName.length).toBeGreaterThan(0);
    // Nothing was written anywhere else: next to the database there is only the database and STORAGE_DIR.
    const besideStorage = filesUnder(path.dirname(storageRoot())).filter((f) => !/^test\.sqlite(-wal|-shm)?$/.test(f));
    expect(besideStorage).toEqual([`${path.basename(storageRoot())}/${row.filePath}`]);
    expect(fs.readFileSync(absoluteStored(row.filePath)).equals(bytes)).toBe(true);
    return row;
  }

  it.each([
    ["filename", { filename: "../../etc/passwd.pdf" }],
    ["filename*", { filenameStar: "../../etc/passwd.pdf" }],
    ["filename* with backslashes", { filenameStar: "..\\..\\Windows\\System32\\passwd.pdf" }],
  ])("a path (%s) keeps only its last part", async (_how, part) => {
    const row = await uploadNamed(part);
    expect(row.fileName).toBe("passwd.pdf");
    expect(fs.existsSync(path.join(storageRoot(), "..", "..", "etc", "passwd.pdf"))).toBe(false);
  });

  it("a NUL byte is dropped: 'evil.exe<NUL>.pdf' is stored as 'evil.exe.pdf'", async () => {
    const row = await uploadNamed({ filenameStar: "evil.exe\u0000.pdf" });
    expect(row.fileName).toBe("evil.exe.pdf");
  });

  it("a raw NUL inside the part header is refused as an unreadable upload, leaving nothing", async () => {
    const response = await postUpload(pdf("evil.exe\u0000.pdf"));
    expect(response.status).toBe(400);
    expectNothingStored();
  });

  it("CR and LF are dropped, so the name cannot split a header", async () => {
    const row = await uploadNamed({ filenameStar: "report\r\nSet-Cookie: stolen=1.pdf" });
    expect(row.fileName).toBe("reportSet-Cookie: stolen=1.pdf");
    // Offered on download in one well-formed header line.
    const download = await callRouteWith(fileLoader, apiRequest("GET", `/api/documents/${row.id}/download`, { cookie: adminCookie }), {
      params: { id: row.id },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).not.toMatch(/[\r\n]/);
    expect(download.headers.get("Set-Cookie")).toBeNull();
  });

  it("markup in a name is kept only as text, with no path separator", async () => {
    const row = await uploadNamed({ filename: "<script>alert(1)</script>.pdf" });
    expect(row.fileName).not.toContain("</script>");
    expect(row.fileName.endsWith(".pdf")).toBe(true);
  });

  it("a 300-character name is cut to 255, keeping the extension", async () => {
    const name = `${"Quarterly report ".repeat(18).slice(0, 296)}.pdf`;
    expect(name).toHaveLength(300);
    const row = await uploadNamed({ filename: name });
    expect(Array.from(row.fileName)).toHaveLength(255);
    expect(row.fileName.endsWith(".pdf")).toBe(true);
    expect(row.fileName.startsWith("Quarterly report Quarterly")).toBe(true);
  });

  it("a right-to-left override that disguises the extension is removed", async () => {
    // Displayed as "report_fdp.exe" → "report_exe.pdf" in a bidi-aware UI.
    const row = await uploadNamed({ filename: "report_\u202Excod.pdf" });
    expect(row.fileName).toBe("report_xcod.pdf");
  });

  it.each([
    ["Hebrew", "דוח רבעוני Q3 2026.pdf"],
    ["Arabic", "تقرير الربع الثالث.pdf"],
  ])("genuine %s letters are kept", async (_script, name) => {
    const row = await uploadNamed({ filename: name });
    expect(row.fileName).toBe(name);
  });

  it("Hebrew letters stay while the bidi marks around them go", async () => {
    const row = await uploadNamed({ filenameStar: "\u202Bדוח\u200F \u2067שנתי\u2069.pdf" });
    expect(row.fileName).toBe("דוח שנתי.pdf");
  });

  it("a name that is nothing but a path becomes 'document.pdf'", async () => {
    const row = await uploadNamed({ filenameStar: "../.." });
    expect(row.fileName).toBe("document.pdf");
  });

  it("names sent through FormData (as a browser does) are cleaned the same way", async () => {
    const response = await postUpload(pdf("..\\..\\tmp\\\u202Efdp.pdf"));
    expect(response.status).toBe(201);
    const row = theStoredDocument();
    expect(row.fileName).toBe("fdp.pdf");
  });
});

describe("POST /admin/documents (the upload form without JavaScript)", () => {
  /** `cookie: null` sends no cookie; by default the admin's. */
  function postForm(file: UploadFile | undefined, fields: Record<string, string> = { title: "Q3 2026 Report" }, cookie: string | null = adminCookie) {
    return callRouteWith(pageAction as never, uploadRequest("/admin/documents", { fields, file, cookie: cookie ?? undefined }));
  }

  async function flashOf(cookie: string | null) {
    expect(cookie).toMatch(/^lr_flash=/);
    return (await readFlash(requestWithCookie("/admin/documents", cookie ?? ""))).flash;
  }

  it("stores the document and redirects to the list with a success toast", async () => {
    const sample = await sampleFile("xlsx");
    const response = await postForm({ bytes: sample.bytes, name: "Metrics.xlsx", type: sample.mime }, { title: "Metrics", category: "reports" });
    const redirect = expectRedirect(response);
    expect([302, 303]).toContain(redirect.status);
    expect(redirect.location).toBe("/admin/documents#published-documents");
    const flash = await flashOf(redirect.cookie);
    expect(flash.toast).toMatchObject({ title: "Document uploaded", description: "The document has been uploaded successfully" });
    expect(flash.form).toMatchObject({ formId: "lp-upload", status: "success" });

    const row = theStoredDocument();
    expect(row).toMatchObject({ title: "Metrics", category: "reports", fileName: "Metrics.xlsx", uploadedBy: admin.id });
    expect(fs.readFileSync(absoluteStored(row.filePath)).equals(sample.bytes)).toBe(true);
  });

  it("a refused file redirects (303) back to the form's own page with the message, and stores nothing", async () => {
    const response = await postForm({ bytes: Buffer.from("<html></html>"), name: "page.pdf", type: MIME.pdf });
    const redirect = expectRedirect(response);
    expect(redirect.status).toBe(303);
    expect(redirect.location).toBe("/admin/documents/upload#upload-document");
    const flash = await flashOf(redirect.cookie);
    expect(flash.toast).toMatchObject({ title: "Upload failed", description: FILE_TYPE_ERROR, variant: "destructive" });
    expect(flash.form).toMatchObject({ formId: "lp-upload", status: "error", message: FILE_TYPE_ERROR, fieldErrors: { file: [FILE_TYPE_ERROR] } });
    expectNothingStored();
  });

  it("a missing title redirects (303) with 'Title is required', and stores nothing", async () => {
    const redirect = expectRedirect(await postForm(pdf(), { title: " " }));
    expect(redirect.status).toBe(303);
    const flash = await flashOf(redirect.cookie);
    expect(flash.form).toMatchObject({ status: "error", message: "Title is required", fieldErrors: { title: ["Title is required"] } });
    expectNothingStored();
  });

  it("50 MB + 1 byte redirects (303) with the size message, and stores nothing", { timeout: 60_000 }, async () => {
    const redirect = expectRedirect(await postForm(pdf("too-big.pdf", pdfOneByteOverTheLimit())));
    expect(redirect.status).toBe(303);
    const flash = await flashOf(redirect.cookie);
    expect(flash.toast).toMatchObject({ title: "Upload failed", description: TOO_LARGE });
    expectNothingStored();
  });

  it.each([
    ["an approved investor", () => investorCookie],
    ["a visitor", () => null],
  ])("sends %s to the admin sign-in, storing nothing", async (_who, cookie) => {
    const thrown = await postForm(pdf(), { title: "Sneaky" }, cookie()).then(
      (answer) => answer,
      (error: unknown) => error,
    );
    const redirect = expectRedirect(thrown);
    expect(redirect.location).toBe("/admin/login");
    expectNothingStored();
  });

  it("GET /admin/documents lists the published documents, one category with ?category=", async () => {
    await postForm(pdf(), { title: "Q4 2026 Letter", category: "newsletters" });
    type Page = { failed: boolean; rows: { title: string; category: string }[]; total: number; all: number; category: string | null };
    const get = async (query = "") =>
      (await callRouteWith(pageLoader as never, apiRequest("GET", `/admin/documents${query}`, { cookie: adminCookie }))) as unknown as Page;
    const all = await get();
    expect(all.failed).toBe(false);
    expect(all.rows.map((d) => d.title)).toContain("Q4 2026 Letter");
    expect(all.total).toBe(all.all);
    const newsletters = await get("?category=newsletters");
    expect(newsletters.category).toBe("newsletters");
    expect(newsletters.rows.map((d) => d.title)).toContain("Q4 2026 Letter");
    expect(newsletters.rows.every((d) => d.category === "newsletters")).toBe(true);
    const research = await get("?category=research");
    expect(research.rows.map((d) => d.title)).not.toContain("Q4 2026 Letter");
    // An unknown category is all of them.
    expect((await get("?category=nope")).category).toBeNull();
  });

  it("GET /admin/documents/upload starts at 'all'; after the picker's search it keeps what was typed and chosen", async () => {
    type Page = { audience: { audience: string; query: string }; typed: Record<string, string> | undefined };
    const get = async (query = "") =>
      (await callRouteWith(uploadPageLoader as never, apiRequest("GET", `/admin/documents/upload${query}`, { cookie: adminCookie }))) as unknown as Page;
    const fresh = await get();
    expect(fresh.audience.audience).toBe("all");
    expect(fresh.typed).toBeUndefined();
    const searched = await get("?_search=1&audience=selected&investors=ada&title=Capital+call&category=reports");
    expect(searched.audience).toMatchObject({ audience: "selected", query: "ada" });
    expect(searched.typed).toMatchObject({ title: "Capital call", category: "reports" });
    const visitor = await callRouteWith(uploadPageLoader as never, apiRequest("GET", "/admin/documents/upload", {})).then(
      (answer) => answer,
      (error: unknown) => error,
    );
    expect(expectRedirect(visitor).location).toBe("/admin/login");
  });

  it("GET /admin/documents pages the list, 50 a page (a page past the end shows the last)", async () => {
    for (let i = 0; i < 51; i++) await postForm(pdf(`p${i}.pdf`), { title: `Paged ${String(i).padStart(2, "0")}` });
    type Page = { rows: { title: string }[]; total: number; page: number };
    const get = async (query: string) =>
      (await callRouteWith(pageLoader as never, apiRequest("GET", `/admin/documents${query}`, { cookie: adminCookie }))) as unknown as Page;
    const first = await get("");
    expect(first.rows).toHaveLength(50);
    expect(first.total).toBeGreaterThanOrEqual(51);
    const last = await get("?page=99");
    expect(last.page).toBe(Math.ceil(first.total / 50));
    expect(last.rows.length).toBe(first.total - 50 * (last.page - 1));
  });
});

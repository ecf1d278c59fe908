import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { expect, test } from "./helpers/fixtures";
import {
  adminSession,
  expectCleanFileName,
  expectContentDisposition,
  expectHealthy,
  multipartBody,
  postRaw,
  rfc5987,
  runDir,
  settledLeftovers,
  storageDir,
  storedPathOf,
  uploadDocument,
  withDb,
  type LpDocument,
  type RawPart,
  type Session,
  type UploadFile,
} from "./helpers/documents";
import { BASE_URL } from "./helpers/origin";
import { MIME, sampleOle2, sampleOoxml, samplePdf, zipOf, type SampleKind } from "../helpers/sample-files";

/**
 * The upload corpus (SPEC.md §5, DESIGN.md §5) through the real server:
 * POST /api/documents as an admin with every allowed type, files that lie
 * about what they are, empty and oversized files, broken and oversized
 * bodies, and hostile file names. Every case is recorded; the last test
 * deletes what was accepted, prints
 *   upload corpus: N cases, bad files accepted 0, 5xx 0, files left behind 0
 * and fails unless all three counts are 0.
 *
 * The cases run in order in one worker; their outcomes are appended to a file
 * in E2E_RUN_DIR, so the summary survives a failed case (Playwright restarts
 * the worker after a failure).
 */

test.describe.configure({ mode: "default" });

const FILE_TYPE = "File type must be PDF, Word, Excel, or PowerPoint";
const TOO_LARGE = "File size must be less than 50MB";
const MB = 1024 * 1024;
const LIMIT = 50 * MB;

type Outcome = {
  name: string;
  expected: "accept" | "refuse";
  statuses: number[];
  title?: string;
  id?: string;
  filePath?: string;
};

const resultsFile = () => path.join(runDir(), `upload-corpus-${test.info().project.name}-${test.info().repeatEachIndex}.jsonl`);

function record(outcome: Outcome) {
  fs.appendFileSync(resultsFile(), `${JSON.stringify(outcome)}\n`);
}

function readOutcomes(): Outcome[] {
  if (!fs.existsSync(resultsFile())) return [];
  return fs
    .readFileSync(resultsFile(), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Outcome);
}

let admin: Session;
const runTag = randomBytes(3).toString("hex");
const titleFor = (name: string) => `Corpus ${runTag} ${name}`.slice(0, 200);

test.beforeAll(async () => {
  admin = await adminSession("corpus-admin");
});

test.afterAll(async () => {
  await admin?.context.dispose();
});

/** Record a case's answer, then read it (JSON, or null when it is not JSON). */
async function answered(
  name: string,
  expected: "accept" | "refuse",
  response: APIResponse,
  extra: { statuses?: number[]; title?: string } = {},
): Promise<{ status: number; json: unknown }> {
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  const doc = response.status() === 201 ? (json as LpDocument | null) : null;
  record({
    name,
    expected,
    statuses: [...(extra.statuses ?? []), response.status()],
    title: extra.title,
    id: doc?.id,
    filePath: doc?.id ? storedPathOf(doc.id) : undefined,
  });
  return { status: response.status(), json };
}

function expectDocument(json: unknown, expected: { title: string; category: string; size: number; description?: string | null }): LpDocument {
  const doc = json as LpDocument;
  // SPEC §7's fields, then the audience and watermark switch (and, for the admin who uploads, the recipients).
  expect(Object.keys(doc).sort()).toEqual(["audience", "category", "createdAt", "description", "fileName", "fileSize", "id", "recipientEntityIds", "recipientIds", "title", "watermark"]);
  expect(doc).toMatchObject({ audience: "all", watermark: false, recipientIds: [], recipientEntityIds: [] });
  expect(doc.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(doc.title).toBe(expected.title);
  expect(doc.category).toBe(expected.category);
  expect(doc.description).toBe(expected.description ?? null);
  expect(doc.fileSize).toBe(String(expected.size));
  expect(Number.isNaN(Date.parse(doc.createdAt))).toBe(false);
  return doc;
}

async function expectRefusal(json: unknown, message: string | RegExp, field?: string) {
  const body = json as { error?: string; fields?: Record<string, string[]> } | null;
  expect(body, "a JSON error body").not.toBeNull();
  if (typeof message === "string") expect(body!.error).toBe(message);
  else expect(body!.error).toMatch(message);
  if (field) expect(body!.fields?.[field], `fields.${field}`).toBeTruthy();
}

// ---------------------------------------------------------------------------
// 1. Every allowed type is accepted, stored byte for byte, and served with its type.

const ALLOWED: { kind: SampleKind; category: string; description?: string }[] = [
  { kind: "pdf", category: "fund_documents", description: "Quarterly letter" },
  { kind: "doc", category: "executive_summary" },
  { kind: "xls", category: "reports", description: "Capital account statement" },
  { kind: "ppt", category: "pitchdeck" },
  { kind: "docx", category: "newsletters" },
  { kind: "xlsx", category: "portfolio_company_news" },
  { kind: "pptx", category: "research", description: "Annual meeting deck" },
];

async function sampleBytes(kind: SampleKind): Promise<Buffer> {
  if (kind === "pdf") return samplePdf(`Corpus ${runTag}`);
  if (kind === "doc" || kind === "xls" || kind === "ppt") return sampleOle2();
  return sampleOoxml(kind);
}

for (const allowed of ALLOWED) {
  test(`accepted: a real .${allowed.kind} (${MIME[allowed.kind]}) → 201, same bytes back`, async () => {
    const name = `allowed ${allowed.kind}`;
    const title = titleFor(name);
    const bytes = await sampleBytes(allowed.kind);
    const response = await uploadDocument(
      admin.context,
      { title, description: allowed.description, category: allowed.category },
      { name: `Fund report.${allowed.kind}`, mimeType: MIME[allowed.kind], buffer: bytes },
    );
    const { status, json } = await answered(name, "accept", response, { title });
    expect(status, JSON.stringify(json)).toBe(201);
    const doc = expectDocument(json, { title, category: allowed.category, size: bytes.length, description: allowed.description });
    expect(doc.fileName).toBe(`Fund report.${allowed.kind}`);

    const download = await admin.context.get(`/api/documents/${doc.id}/download`);
    record({ name: `${name} (download)`, expected: "accept", statuses: [download.status()] });
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe(MIME[allowed.kind]);
    expect(Buffer.compare(await download.body(), bytes)).toBe(0);

    const list = (await (await admin.context.get("/api/documents")).json()) as LpDocument[];
    expect(list.find((d) => d.id === doc.id)).toEqual(doc);
  });
}

test("accepted: the declared type is read case-insensitively and without parameters", async () => {
  for (const mimeType of ["APPLICATION/PDF", "application/pdf; charset=binary"]) {
    const name = `declared ${mimeType}`;
    const title = titleFor(name);
    const bytes = samplePdf("declared type");
    const response = await uploadDocument(admin.context, { title, category: "reports" }, { name: "declared.pdf", mimeType, buffer: bytes });
    const { status, json } = await answered(name, "accept", response, { title });
    expect(status, `${mimeType}: ${JSON.stringify(json)}`).toBe(201);
    expectDocument(json, { title, category: "reports", size: bytes.length });
    const head = await admin.context.head(`/api/documents/${(json as LpDocument).id}/view`);
    expect(head.headers()["content-type"]).toBe("application/pdf");
  }
});

// ---------------------------------------------------------------------------
// 2. Files that are not what they claim, or not allowed at all: 400, nothing stored.

const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>\n');
const EXE = (() => {
  const file = Buffer.alloc(1024);
  file.write("MZ", 0, "latin1");
  file.writeUInt32LE(0x80, 0x3c);
  file.write("This program cannot be run in DOS mode.\r\r\n$", 0x4e, "latin1");
  file.write("PE\0\0", 0x80, "latin1");
  return file;
})();
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

type Refused = { name: string; file: () => Promise<UploadFile>; message?: string };

const REFUSED: Refused[] = [
  { name: "HTML renamed report.pdf, declared application/pdf", file: async () => ({ name: "report.pdf", mimeType: MIME.pdf, buffer: HTML }) },
  { name: "HTML declared as a Word document", file: async () => ({ name: "report.docx", mimeType: MIME.docx, buffer: HTML }) },
  { name: "a Windows executable (MZ) named .pdf", file: async () => ({ name: "statement.pdf", mimeType: MIME.pdf, buffer: EXE }) },
  { name: "a Windows executable declared application/msword", file: async () => ({ name: "memo.doc", mimeType: MIME.doc, buffer: EXE }) },
  { name: "SVG with a script named .pdf", file: async () => ({ name: "chart.pdf", mimeType: MIME.pdf, buffer: SVG }) },
  { name: "a real PDF declared docx", file: async () => ({ name: "letter.docx", mimeType: MIME.docx, buffer: samplePdf("mislabelled") }) },
  { name: "a real PDF declared application/msword", file: async () => ({ name: "letter.doc", mimeType: MIME.doc, buffer: samplePdf("mislabelled") }) },
  { name: "a plain zip declared pdf", file: async () => ({ name: "archive.pdf", mimeType: MIME.pdf, buffer: await zipOf({ "readme.txt": "hello" }) }) },
  { name: "a real docx declared pdf", file: async () => ({ name: "letter.pdf", mimeType: MIME.pdf, buffer: await sampleOoxml("docx") }) },
  { name: "a real xlsx declared docx", file: async () => ({ name: "book.docx", mimeType: MIME.docx, buffer: await sampleOoxml("xlsx") }) },
  { name: "a real docx declared pptx", file: async () => ({ name: "deck.pptx", mimeType: MIME.pptx, buffer: await sampleOoxml("docx") }) },
  { name: "an OLE2 container declared pdf", file: async () => ({ name: "sheet.pdf", mimeType: MIME.pdf, buffer: sampleOle2() }) },
  { name: "a real PDF declared application/octet-stream", file: async () => ({ name: "plain.pdf", mimeType: "application/octet-stream", buffer: samplePdf() }) },
  { name: "a real PDF declared text/html", file: async () => ({ name: "page.pdf", mimeType: "text/html", buffer: samplePdf() }) },
  { name: "a text file (text/plain)", file: async () => ({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("just notes\n") }) },
  {
    name: "a zip with [Content_Types].xml but no OOXML main part, declared docx",
    file: async () => ({
      name: "hollow.docx",
      mimeType: MIME.docx,
      buffer: await zipOf({ "[Content_Types].xml": "<Types/>", "_rels/.rels": "<Relationships/>", "word/other.xml": "<x/>" }),
    }),
  },
  {
    name: "a zip with word/document.xml but no [Content_Types].xml, declared docx",
    file: async () => ({ name: "partial.docx", mimeType: MIME.docx, buffer: await zipOf({ "word/document.xml": "<w/>" }) }),
  },
  {
    name: "a docx cut short (zip header only), declared docx",
    file: async () => ({ name: "cut.docx", mimeType: MIME.docx, buffer: (await sampleOoxml("docx")).subarray(0, 120) }),
  },
  {
    name: "a zip whose main part comes after 5000 filler entries, declared docx",
    file: async () => {
      const entries: Record<string, string> = {};
      for (let i = 0; i < 5001; i += 1) entries[`filler/${i}.xml`] = "";
      entries["[Content_Types].xml"] = "<Types/>";
      entries["word/document.xml"] = "<w/>";
      return { name: "crowded.docx", mimeType: MIME.docx, buffer: await zipOf(entries) };
    },
  },
  { name: "'%pdf-' in lower case declared pdf", file: async () => ({ name: "lower.pdf", mimeType: MIME.pdf, buffer: Buffer.from("%pdf-1.4\nnot really\n") }) },
  { name: "0 bytes named empty.pdf", file: async () => ({ name: "empty.pdf", mimeType: MIME.pdf, buffer: Buffer.alloc(0) }), message: "The file is empty" },
];

for (const refused of REFUSED) {
  test(`refused: ${refused.name} → 400`, async () => {
    const title = titleFor(refused.name);
    const file = await refused.file();
    const response = await uploadDocument(admin.context, { title, category: "reports" }, file);
    const { status, json } = await answered(refused.name, "refuse", response, { title });
    expect(status, JSON.stringify(json)).toBe(400);
    await expectRefusal(json, refused.message ?? FILE_TYPE, "file");
  });
}

// The form itself is wrong: the file may be fine, the request is not.
type BadForm = { name: string; status: number; message: string | RegExp; send: (context: APIRequestContext) => Promise<APIResponse> };

const pdfPart = (extra: Partial<RawPart> = {}): RawPart => ({ name: "file", filename: "ok.pdf", mimeType: MIME.pdf, value: samplePdf("form"), ...extra });
const sendParts = (parts: RawPart[]) => (context: APIRequestContext) => {
  const { body, contentType } = multipartBody(parts);
  return postRaw(context, "/api/documents", body, contentType);
};

const BAD_FORMS: BadForm[] = [
  { name: "no title", status: 400, message: "Title is required", send: (c) => uploadDocument(c, { category: "reports" }, { name: "a.pdf", mimeType: MIME.pdf, buffer: samplePdf() }) },
  { name: "a blank title", status: 400, message: "Title is required", send: (c) => uploadDocument(c, { title: "   ", category: "reports" }, { name: "a.pdf", mimeType: MIME.pdf, buffer: samplePdf() }) },
  { name: "a 201-character title", status: 400, message: /Title must be at most 200/, send: (c) => uploadDocument(c, { title: "t".repeat(201) }, { name: "a.pdf", mimeType: MIME.pdf, buffer: samplePdf() }) },
  { name: "an unknown category", status: 400, message: /categor/i, send: (c) => uploadDocument(c, { title: titleFor("bad category"), category: "secret_stuff" }, { name: "a.pdf", mimeType: MIME.pdf, buffer: samplePdf() }) },
  { name: "no file part", status: 400, message: "File is required", send: (c) => uploadDocument(c, { title: titleFor("no file"), category: "reports" }) },
  {
    name: "an empty file input (no name, no bytes, as a browser sends it)",
    status: 400,
    message: "File is required",
    send: sendParts([{ name: "title", value: titleFor("empty input") }, { name: "file", filename: "", mimeType: "application/octet-stream", value: Buffer.alloc(0) }]),
  },
  {
    name: "the file under another field name",
    status: 400,
    message: "File is required",
    send: sendParts([{ name: "title", value: titleFor("other field") }, pdfPart({ name: "document" })]),
  },
  {
    name: "two files",
    status: 400,
    message: "Upload one file at a time",
    send: sendParts([{ name: "title", value: titleFor("two files") }, pdfPart(), pdfPart({ filename: "second.pdf" })]),
  },
  {
    name: "a body cut off before the closing boundary",
    status: 400,
    message: "The upload could not be read. Please try again.",
    send: (c) => {
      const { body, contentType } = multipartBody([{ name: "title", value: titleFor("cut body") }, pdfPart()]);
      return postRaw(c, "/api/documents", body.subarray(0, body.length - 200), contentType);
    },
  },
  {
    name: "a JSON body",
    status: 415,
    message: "Content-Type must be multipart/form-data",
    send: (c) => c.post("/api/documents", { data: { title: "json", category: "reports", file: samplePdf().toString("base64") } }),
  },
  {
    name: "a urlencoded form",
    status: 415,
    message: "Content-Type must be multipart/form-data",
    send: (c) => c.post("/api/documents", { form: { title: "form", category: "reports" } }),
  },
  {
    name: "multipart without a boundary",
    status: 400,
    message: /./,
    send: (c) => postRaw(c, "/api/documents", multipartBody([pdfPart()]).body, "multipart/form-data; charset=utf-8"),
  },
];

for (const bad of BAD_FORMS) {
  test(`refused form: ${bad.name} → ${bad.status}`, async () => {
    const response = await bad.send(admin.context);
    const { status, json } = await answered(`form: ${bad.name}`, "refuse", response);
    expect(status, JSON.stringify(json)).toBe(bad.status);
    await expectRefusal(json, bad.message);
  });
}

// ---------------------------------------------------------------------------
// 3. Size: exactly 50 MB is accepted, one byte more is not; far bigger bodies are cut off.

test.describe("size limits", () => {
  test.describe.configure({ timeout: 180_000 });

  test("exactly 50 MB (52428800 bytes) → 201", async () => {
    const name = "exactly 50 MB";
    const title = titleFor(name);
    const bytes = samplePdf("fifty", LIMIT);
    expect(bytes.length).toBe(52428800);
    const response = await uploadDocument(admin.context, { title, category: "reports" }, { name: "fifty.pdf", mimeType: MIME.pdf, buffer: bytes });
    const { status, json } = await answered(name, "accept", response, { title });
    expect(status, JSON.stringify(json)).toBe(201);
    const doc = expectDocument(json, { title, category: "reports", size: 52428800 });
    const stored = storedPathOf(doc.id)!;
    expect(fs.statSync(path.join(storageDir(), stored)).size).toBe(52428800);
    // The end of the stored file is the end of the upload.
    const tail = await admin.context.get(`/api/documents/${doc.id}/download`, { headers: { Range: "bytes=-4096" } });
    expect(tail.status()).toBe(206);
    expect(Buffer.compare(await tail.body(), bytes.subarray(bytes.length - 4096))).toBe(0);
  });

  test("50 MB + 1 byte → 413 'File size must be less than 50MB'", async () => {
    const name = "50 MB + 1 byte";
    const title = titleFor(name);
    const bytes = samplePdf("fifty plus one", LIMIT + 1);
    expect(bytes.length).toBe(52428801);
    const response = await uploadDocument(admin.context, { title, category: "reports" }, { name: "too-big.pdf", mimeType: MIME.pdf, buffer: bytes });
    const { status, json } = await answered(name, "refuse", response, { title });
    expect(status, JSON.stringify(json)).toBe(413);
    await expectRefusal(json, TOO_LARGE, "file");
    await expectHealthy(admin.context);
  });

  test("a 60 MB file (under the server's ceiling, over the upload limit) → 413", async () => {
    const name = "60 MB body";
    const title = titleFor(name);
    const bytes = samplePdf("sixty", 60 * MB);
    const response = await uploadDocument(admin.context, { title, category: "reports" }, { name: "sixty.pdf", mimeType: MIME.pdf, buffer: bytes });
    const { status, json } = await answered(name, "refuse", response, { title });
    expect(status, JSON.stringify(json)).toBe(413);
    await expectRefusal(json, /File size must be less than 50MB|too large/);
    await expectHealthy(admin.context);
  });

  test("a body declaring 70 MB → 413 at once, and the server stays healthy", async () => {
    const { body, contentType } = multipartBody([{ name: "title", value: titleFor("declared 70 MB") }, pdfPart({ value: samplePdf("head", 64 * 1024) })]);
    const declared = 70 * MB;
    const result = await sendPartially(body, { "Content-Type": contentType, "Content-Length": String(declared), Cookie: admin.cookie, "X-Forwarded-For": admin.ip });
    record({ name: "declared 70 MB", expected: "refuse", statuses: [result.status] });
    expect(result.status, result.body).toBe(413);
    expect(JSON.parse(result.body).error).toMatch(/too large|less than 50MB/);
    await expectHealthy(admin.context);
  });

  test("a 70 MB upload streamed without Content-Length → 413, cut off while streaming", async () => {
    const result = await sendChunked(70 * MB, { Cookie: admin.cookie, "X-Forwarded-For": admin.ip });
    record({ name: "chunked 70 MB", expected: "refuse", statuses: [result.status] });
    expect(result.status, result.body).toBe(413);
    expect(JSON.parse(result.body).error).toMatch(/too large|less than 50MB/);
    await expectHealthy(admin.context);
  });

  test("an upload the client abandons half-way leaves no partial file", async () => {
    await abandonUpload(8 * MB, { Cookie: admin.cookie, "X-Forwarded-For": admin.ip });
    record({ name: "abandoned upload", expected: "refuse", statuses: [] });
    await expect.poll(() => fs.readdirSync(path.join(storageDir(), "incoming")).length, { timeout: 10_000 }).toBe(0);
    await expectHealthy(admin.context);
  });
});

/** Send the head of a body that declares a bigger Content-Length, then wait for the answer. */
function sendPartially(head: Buffer, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(BASE_URL);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer within 20 s")), 20_000);
    const req = http.request({ host: url.hostname, port: url.port, path: "/api/documents", method: "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
      });
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    req.write(head);
  });
}

/** A multipart upload of a PDF of `fileBytes` bytes sent with Transfer-Encoding: chunked. */
function sendChunked(fileBytes: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(BASE_URL);
  const boundary = `----e2e${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${titleFor("chunked 70 MB")}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: "/api/documents",
        method: "POST",
        headers: { ...headers, "Content-Type": `multipart/form-data; boundary=${boundary}`, "Transfer-Encoding": "chunked" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    let stopped = false;
    req.on("response", () => (stopped = true));
    req.write(head);
    const pump = () => {
      while (!stopped && sent < fileBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!stopped) req.end(tail);
    };
    pump();
  });
}

/** Start an upload and drop the connection after `bytes` of the file. */
function abandonUpload(bytes: number, headers: Record<string, string>): Promise<void> {
  const url = new URL(BASE_URL);
  const boundary = `----e2e${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${titleFor("abandoned")}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gone.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
  );
  return new Promise((resolve) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: "/api/documents",
      method: "POST",
      headers: { ...headers, "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": String(head.length + bytes * 2) },
    });
    req.on("error", () => resolve());
    req.on("close", () => resolve());
    req.write(head);
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
      // Give the server a moment to write some of it to incoming/, then vanish.
      setTimeout(() => req.destroy(), 300);
    };
    pump();
  });
}

// ---------------------------------------------------------------------------
// 4. Hostile names: accepted (the name is metadata only) but cleaned, and offered back well-formed.

type NameCase = {
  name: string;
  /** How the name is put into the part's Content-Disposition. */
  disposition: (field: string) => string;
  /** The cleaned name the answer must give, when it is predictable. */
  expected?: string | RegExp;
};

const plain = (filename: string) => (field: string) => `form-data; name="${field}"; filename="${filename}"`;
const extended = (filename: string) => (field: string) => `form-data; name="${field}"; filename*=UTF-8''${rfc5987(filename)}`;

const NAME_CASES: NameCase[] = [
  { name: "../ path traversal", disposition: plain("../../../etc/passwd.pdf"), expected: "passwd.pdf" },
  { name: "..\\ Windows path traversal", disposition: plain("..\\..\\windows\\system32\\boot.pdf"), expected: "boot.pdf" },
  { name: "an absolute path", disposition: extended("/var/lib/app/storage/documents/x.pdf"), expected: "x.pdf" },
  { name: "a NUL byte before the extension", disposition: extended("invoice.exe\u0000.pdf"), expected: "invoice.exe.pdf" },
  { name: "CRLF and a header after it", disposition: extended("report\r\nSet-Cookie: pwned=1\r\n.pdf"), expected: "reportSet-Cookie: pwned=1.pdf" },
  { name: "other control characters", disposition: extended("tab\there\u0007bell\u001bescape\u007f\u0085.pdf"), expected: "tabherebellescape.pdf" },
  { name: "an HTML tag", disposition: plain("<img src=x onerror=alert(1)>.pdf"), expected: "<img src=x onerror=alert(1)>.pdf" },
  { name: "a <script> element", disposition: extended("<script>alert(1)</script>.pdf"), expected: /^[^/\\]*\.pdf$/ },
  { name: "quotes, semicolons and backslash-free parameters", disposition: extended('q"uote; filename=evil.exe; x=.pdf'), expected: 'q"uote; filename=evil.exe; x=.pdf' },
  { name: "300 ASCII characters", disposition: plain(`${"a".repeat(296)}.pdf`), expected: `${"a".repeat(251)}.pdf` },
  { name: "300 CJK characters", disposition: extended(`${"報".repeat(296)}.pdf`), expected: `${"報".repeat(251)}.pdf` },
  { name: "300 emoji (astral characters)", disposition: extended(`${"📈".repeat(296)}.pdf`), expected: `${"📈".repeat(251)}.pdf` },
  { name: "a right-to-left override disguising the extension", disposition: extended("invoice\u202Efdp.exe"), expected: "invoicefdp.exe.pdf" },
  { name: "bidi isolates and marks", disposition: extended("\u2067annual\u2069\u200F report\u200E.pdf"), expected: "annual report.pdf" },
  { name: "Hebrew letters (right-to-left)", disposition: extended("דוח רבעוני.pdf"), expected: "דוח רבעוני.pdf" },
  { name: "Arabic letters (right-to-left)", disposition: plain("تقرير سنوي.pdf"), expected: "تقرير سنوي.pdf" },
  { name: "decomposed accents (normalised to NFC)", disposition: extended("re\u0301sume\u0301 \u2713.pdf"), expected: "r\u00e9sum\u00e9 \u2713.pdf" },
  { name: "Latin-1 accents only (sent raw in filename=, needs filename*)", disposition: extended("Société Générale Überblick.pdf"), expected: "Société Générale Überblick.pdf" },
  { name: "only dots", disposition: plain("..."), expected: "document.pdf" },
  { name: "a percent-encoded traversal kept literally", disposition: plain("%2e%2e%2fsecret.pdf"), expected: "%2e%2e%2fsecret.pdf" },
];

for (const nameCase of NAME_CASES) {
  test(`name: ${nameCase.name} → 201 with a clean name, well-formed Content-Disposition`, async () => {
    const title = titleFor(`name ${nameCase.name}`);
    const bytes = samplePdf(`name ${nameCase.name}`);
    const { body, contentType } = multipartBody([
      { name: "title", value: title },
      { name: "category", value: "research" },
      { name: "file", disposition: nameCase.disposition("file"), mimeType: MIME.pdf, value: bytes },
    ]);
    const response = await postRaw(admin.context, "/api/documents", body, contentType);
    const { status, json } = await answered(`name: ${nameCase.name}`, "accept", response, { title });
    expect(status, JSON.stringify(json)).toBe(201);
    const doc = expectDocument(json, { title, category: "research", size: bytes.length });
    expectCleanFileName(doc.fileName);
    if (typeof nameCase.expected === "string") expect(doc.fileName).toBe(nameCase.expected);
    else if (nameCase.expected) expect(doc.fileName).toMatch(nameCase.expected);

    // Stored under a server-made name, whatever the client called it.
    expect(storedPathOf(doc.id)).toMatch(/^documents\/[0-9a-f]{32}$/);

    for (const [action, type] of [["download", "attachment"], ["view", "inline"]] as const) {
      const raw = await fetchRaw(`/api/documents/${doc.id}/${action}`);
      record({ name: `name: ${nameCase.name} (${action})`, expected: "accept", statuses: [raw.status] });
      expect(raw.status).toBe(200);
      expectContentDisposition(raw.headers["content-disposition"] as string | undefined, type, doc.fileName);
      // No header was smuggled in through the name.
      expect(raw.headers["set-cookie"]).toBeUndefined();
      expect(Buffer.compare(raw.body, bytes)).toBe(0);
    }
  });
}

/** GET over node:http as the admin, to see the raw header bytes. */
function fetchRaw(urlPath: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const url = new URL(BASE_URL);
  return new Promise((resolve, reject) => {
    http
      .get({ host: url.hostname, port: url.port, path: urlPath, headers: { Cookie: admin.cookie, "X-Forwarded-For": admin.ip } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

// ---------------------------------------------------------------------------
// 5. The same rules through the admin page's upload form without JavaScript
// (POST /admin/documents): the answer is always a 303 See Other, to the list when published, else back to the upload page.

const documentTitled = (title: string) =>
  withDb((db) => db.prepare("select id, file_path from documents where title = ?").get(title) as { id: string; file_path: string } | undefined);

test("no-JS form: a valid PDF → 303 to the published documents, stored", async () => {
  const name = "form: valid pdf";
  const title = titleFor(name);
  const bytes = samplePdf("form upload");
  const response = await uploadDocument(admin.context, { title, category: "reports" }, { name: "form.pdf", mimeType: MIME.pdf, buffer: bytes }, { path: "/admin/documents" });
  const row = documentTitled(title);
  record({ name, expected: "accept", statuses: [response.status()], title, id: row?.id, filePath: row?.file_path });
  expect(row, "the document is stored").toBeTruthy();
  expect(response.headers()["location"]).toBe("/admin/documents#published-documents");
  // A redirect after a form POST: 303 See Other (the failure path below already answers 303).
  expect(response.status()).toBe(303);
});

const FORM_REFUSED: { name: string; fields: Record<string, string>; file?: UploadFile }[] = [
  { name: "HTML declared pdf", fields: { category: "reports" }, file: { name: "x.pdf", mimeType: MIME.pdf, buffer: HTML } },
  { name: "a PDF declared docx", fields: { category: "reports" }, file: { name: "x.docx", mimeType: MIME.docx, buffer: samplePdf() } },
  { name: "0 bytes", fields: { category: "reports" }, file: { name: "empty.pdf", mimeType: MIME.pdf, buffer: Buffer.alloc(0) } },
  { name: "no title", fields: { title: "", category: "reports" }, file: { name: "x.pdf", mimeType: MIME.pdf, buffer: samplePdf() } },
];

for (const refused of FORM_REFUSED) {
  test(`no-JS form: ${refused.name} → 303 back to the form, nothing stored`, async () => {
    const name = `form: ${refused.name}`;
    const title = titleFor(name);
    const response = await uploadDocument(admin.context, { title, ...refused.fields }, refused.file, { path: "/admin/documents" });
    record({ name, expected: "refuse", statuses: [response.status()], title });
    expect(response.status()).toBe(303);
    expect(response.headers()["location"]).toBe("/admin/documents/upload#upload-document");
    expect(documentTitled(title)).toBeUndefined();
  });
}

test("no-JS form: 50 MB + 1 byte → 303 back to the form, nothing stored", async () => {
  test.setTimeout(120_000);
  const name = "form: 50 MB + 1 byte";
  const title = titleFor(name);
  const response = await uploadDocument(
    admin.context,
    { title, category: "reports" },
    { name: "big.pdf", mimeType: MIME.pdf, buffer: samplePdf("form too big", LIMIT + 1) },
    { path: "/admin/documents" },
  );
  record({ name, expected: "refuse", statuses: [response.status()], title });
  expect(response.status()).toBe(303);
  expect(response.headers()["location"]).toBe("/admin/documents/upload#upload-document");
  expect(documentTitled(title)).toBeUndefined();
  await expectHealthy(admin.context);
});

// ---------------------------------------------------------------------------
// 6. The report: delete what was accepted, then count.

test("report: no bad file accepted, no 5xx, no file left behind", async () => {
  test.setTimeout(60_000);
  const outcomes = readOutcomes();
  const cases = outcomes.filter((o) => !/\((download|view)\)$/.test(o.name));
  expect(cases.length, "the corpus ran before the report").toBeGreaterThan(0);

  // A refused case is "accepted" if it got a 2xx or left a document row with its title.
  const titles = new Set(withDb((db) => (db.prepare("select title from documents").all() as { title: string }[]).map((r) => r.title)));
  const badAccepted = cases.filter(
    (o) => o.expected === "refuse" && (o.statuses.some((s) => s >= 200 && s < 300) || (o.title !== undefined && titles.has(o.title))),
  );
  const fiveXx = outcomes.filter((o) => o.statuses.some((s) => s >= 500));

  // Delete every accepted document; each file must go with it.
  const accepted = outcomes.filter((o) => o.id);
  for (const o of accepted) {
    const response = await admin.context.delete(`/api/documents/${o.id}`);
    expect(response.status(), `DELETE ${o.name}`).toBe(200);
    expect(await response.json()).toEqual({ success: true, id: o.id });
    expect(fs.existsSync(path.join(storageDir(), o.filePath!)), `${o.name}: file removed`).toBe(false);
  }
  const list = (await (await admin.context.get("/api/documents")).json()) as LpDocument[];
  const remaining = new Set(list.map((d) => d.id));
  for (const o of accepted) expect(remaining.has(o.id!), `${o.name} gone from the list`).toBe(false);

  const left = await settledLeftovers();
  const leftBehind = left.incoming.length + left.orphans.length;
  console.log(`upload corpus: ${cases.length} cases, bad files accepted ${badAccepted.length}, 5xx ${fiveXx.length}, files left behind ${leftBehind}`);
  expect(badAccepted.map((o) => o.name), "bad files accepted").toEqual([]);
  expect(fiveXx.map((o) => `${o.name}: ${o.statuses.join(",")}`), "5xx answers").toEqual([]);
  expect(left, "files left behind").toEqual({ incoming: [], orphans: [] });
  fs.rmSync(resultsFile(), { force: true });
});

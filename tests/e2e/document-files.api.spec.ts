import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect, test } from "./helpers/fixtures";
import {
  adminSession,
  approvedInvestorSession,
  expectContentDisposition,
  expectFileSecurityHeaders,
  expectHealthy,
  rawRequest,
  storageDir,
  storedPathOf,
  uploadDocument,
  withDb,
  type LpDocument,
  type Session,
} from "./helpers/documents";
import { expectSecurityHeaders } from "./helpers/http";
import { BASE_URL } from "./helpers/origin";
import { MIME, samplePdf } from "../helpers/sample-files";

/**
 * GET /api/documents/{id}/view and /download (DESIGN.md §5): the stored bytes
 * exactly, inline or as an attachment with an RFC 6266 name, private and
 * uncached, with ETag/Last-Modified (304), byte ranges (206/416), never
 * compressed; a client that goes away mid-file does no harm; a deleted
 * document is gone.
 */

// In order, in one worker; a failure does not skip the rest (beforeAll makes a fresh document for the next worker).
test.describe.configure({ mode: "default" });

// A name that needs both the ASCII fallback (filename=) and the UTF-8 form (filename*=).
const FILE_NAME = "Fund Report – Q3 2025 ✓.pdf";
const FALLBACK = "Fund Report _ Q3 2025 _.pdf";

let admin: Session;
let investor: Session;
let doc: LpDocument;
let bytes: Buffer;

test.beforeAll(async () => {
  admin = await adminSession("files-admin");
  // A real PDF head with a random tail, so every byte range is distinctive.
  bytes = Buffer.concat([samplePdf("Known document"), randomBytes(300_000)]);
  const response = await uploadDocument(
    admin.context,
    { title: `Known ${randomBytes(3).toString("hex")}`, description: "Bytes we know", category: "reports" },
    { name: FILE_NAME, mimeType: MIME.pdf, buffer: bytes },
  );
  expect(response.status(), await response.text()).toBe(201);
  doc = (await response.json()) as LpDocument;
  expect(doc.fileName).toBe(FILE_NAME);
  expect(doc.fileSize).toBe(String(bytes.length));
  investor = await approvedInvestorSession(admin);
});

test.afterAll(async () => {
  await admin?.context.dispose();
  await investor?.context.dispose();
});

const viewPath = () => `/api/documents/${doc.id}/view`;
const downloadPath = () => `/api/documents/${doc.id}/download`;

test("view and download give the uploaded bytes, for the investor and the admin", async () => {
  for (const session of [investor, admin]) {
    for (const urlPath of [viewPath(), downloadPath()]) {
      const response = await session.context.get(urlPath);
      expect(response.status(), urlPath).toBe(200);
      const body = await response.body();
      expect(body.length).toBe(bytes.length);
      expect(Buffer.compare(body, bytes), `${urlPath}: identical bytes`).toBe(0);
    }
  }
});

test("headers: type, inline vs attachment with filename and filename*, private no-store, nosniff, validators, ranges, security headers", async () => {
  const view = await investor.context.get(viewPath());
  const download = await investor.context.get(downloadPath());
  for (const [response, type] of [
    [view, "inline"],
    [download, "attachment"],
  ] as const) {
    const headers = response.headers();
    expect(response.status()).toBe(200);
    expect(headers["content-type"]).toBe("application/pdf");
    expectContentDisposition(headers["content-disposition"], type, FILE_NAME);
    expect(headers["content-disposition"]).toBe(
      `${type}; filename="${FALLBACK}"; filename*=UTF-8''Fund%20Report%20%E2%80%93%20Q3%202025%20%E2%9C%93.pdf`,
    );
    expect(headers["cache-control"]).toBe("private, no-store");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["etag"]).toMatch(/^"[^"]+"$/);
    expect(Number.isNaN(Date.parse(headers["last-modified"] ?? ""))).toBe(false);
    expect(headers["accept-ranges"]).toBe("bytes");
    expect(headers["content-length"]).toBe(String(bytes.length));
    expect(headers["content-encoding"]).toBeUndefined();
    expect(headers["set-cookie"]).toBeUndefined();
    expectFileSecurityHeaders(response, type, `${type} ${response.url()}`);
  }
  // One file, one validator: view and download agree.
  expect(view.headers()["etag"]).toBe(download.headers()["etag"]);
  expect(view.headers()["last-modified"]).toBe(download.headers()["last-modified"]);
});

test("Range bytes=0-99 → 206 with exactly those bytes and Content-Range", async () => {
  const response = await investor.context.get(downloadPath(), { headers: { Range: "bytes=0-99" } });
  expect(response.status()).toBe(206);
  expect(response.headers()["content-range"]).toBe(`bytes 0-99/${bytes.length}`);
  expect(response.headers()["content-length"]).toBe("100");
  expect(Buffer.compare(await response.body(), bytes.subarray(0, 100))).toBe(0);
  expectSecurityHeaders(response, "206");
  expect(response.headers()["cache-control"]).toBe("private, no-store");
});

test("Range in the middle and open-ended ranges", async () => {
  const middle = await investor.context.get(viewPath(), { headers: { Range: "bytes=1000-1999" } });
  expect(middle.status()).toBe(206);
  expect(middle.headers()["content-range"]).toBe(`bytes 1000-1999/${bytes.length}`);
  expect(Buffer.compare(await middle.body(), bytes.subarray(1000, 2000))).toBe(0);

  const from = bytes.length - 12_345;
  const rest = await investor.context.get(downloadPath(), { headers: { Range: `bytes=${from}-` } });
  expect(rest.status()).toBe(206);
  expect(rest.headers()["content-range"]).toBe(`bytes ${from}-${bytes.length - 1}/${bytes.length}`);
  expect(Buffer.compare(await rest.body(), bytes.subarray(from))).toBe(0);

  // A range running past the end is cut to the file.
  const past = await investor.context.get(downloadPath(), { headers: { Range: `bytes=${bytes.length - 5}-${bytes.length + 1000}` } });
  expect(past.status()).toBe(206);
  expect(Buffer.compare(await past.body(), bytes.subarray(bytes.length - 5))).toBe(0);
});

test("Range bytes=-10 → the last 10 bytes", async () => {
  const response = await investor.context.get(downloadPath(), { headers: { Range: "bytes=-10" } });
  expect(response.status()).toBe(206);
  expect(response.headers()["content-range"]).toBe(`bytes ${bytes.length - 10}-${bytes.length - 1}/${bytes.length}`);
  expect(response.headers()["content-length"]).toBe("10");
  expect(Buffer.compare(await response.body(), bytes.subarray(bytes.length - 10))).toBe(0);
});

test("a range past the end → 416 with Content-Range: bytes */<size>", async () => {
  for (const range of [`bytes=${bytes.length}-`, `bytes=${bytes.length + 100}-${bytes.length + 200}`]) {
    const response = await investor.context.get(downloadPath(), { headers: { Range: range } });
    expect(response.status(), range).toBe(416);
    expect(response.headers()["content-range"]).toBe(`bytes */${bytes.length}`);
    const body = await response.body();
    expect(body.includes(bytes.subarray(0, 8)), "no file bytes in a 416").toBe(false);
    expectSecurityHeaders(response, "416");
  }
});

test("ranges the server does not serve as a part (malformed, several at once) → the whole file", async () => {
  for (const range of ["bytes=abc", "items=0-10", "bytes=0-9,5000-5009"]) {
    const response = await investor.context.get(downloadPath(), { headers: { Range: range } });
    expect(response.status(), range).toBe(200);
    expect(response.headers()["content-range"]).toBeUndefined();
    expect(Buffer.compare(await response.body(), bytes), range).toBe(0);
  }
});

test("If-None-Match with the ETag → 304 without a body; another tag → 200", async () => {
  const first = await investor.context.get(viewPath());
  const etag = first.headers()["etag"]!;
  for (const value of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
    const response = await investor.context.get(viewPath(), { headers: { "If-None-Match": value } });
    expect(response.status(), `If-None-Match: ${value}`).toBe(304);
    expect((await response.body()).length).toBe(0);
    expect(response.headers()["etag"]).toBe(etag);
    expect(response.headers()["cache-control"]).toBe("private, no-store");
  }
  const other = await investor.context.get(viewPath(), { headers: { "If-None-Match": '"not-this-one"' } });
  expect(other.status()).toBe(200);
  expect(Buffer.compare(await other.body(), bytes)).toBe(0);

  const since = await investor.context.get(downloadPath(), { headers: { "If-Modified-Since": first.headers()["last-modified"]! } });
  expect(since.status()).toBe(304);
});

test("If-Range: the current ETag or date → 206; a stale one → 200 with the whole file", async () => {
  const first = await investor.context.get(downloadPath());
  const { etag, "last-modified": lastModified } = first.headers();
  for (const ifRange of [etag!, lastModified!]) {
    const response = await investor.context.get(downloadPath(), { headers: { Range: "bytes=0-99", "If-Range": ifRange } });
    expect(response.status(), `If-Range: ${ifRange}`).toBe(206);
    expect(Buffer.compare(await response.body(), bytes.subarray(0, 100))).toBe(0);
  }
  for (const stale of ['"stale-etag"', "Mon, 01 Jan 2001 00:00:00 GMT"]) {
    const response = await investor.context.get(downloadPath(), { headers: { Range: "bytes=0-99", "If-Range": stale } });
    expect(response.status(), `If-Range: ${stale}`).toBe(200);
    expect(response.headers()["content-range"]).toBeUndefined();
    expect(Buffer.compare(await response.body(), bytes)).toBe(0);
  }
});

test("never compressed, even when the client offers gzip and br", async () => {
  for (const urlPath of [viewPath(), downloadPath()]) {
    // node:http does not decompress, so the bytes on the wire are compared.
    const raw = await rawRequest({ path: urlPath, headers: { Cookie: investor.cookie, "Accept-Encoding": "gzip, deflate, br", "X-Forwarded-For": investor.ip } });
    expect(raw.status).toBe(200);
    expect(raw.headers["content-encoding"]).toBeUndefined();
    expect(raw.headers["content-length"]).toBe(String(bytes.length));
    expect(Buffer.compare(raw.body, bytes), `${urlPath}: bytes on the wire`).toBe(0);

    const ranged = await rawRequest({
      path: urlPath,
      headers: { Cookie: investor.cookie, "Accept-Encoding": "gzip, br", Range: "bytes=0-99", "X-Forwarded-For": investor.ip },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers["content-encoding"]).toBeUndefined();
    expect(Buffer.compare(ranged.body, bytes.subarray(0, 100))).toBe(0);
  }
});

test("HEAD: the same headers, no body", async () => {
  for (const [urlPath, type] of [
    [viewPath(), "inline"],
    [downloadPath(), "attachment"],
  ] as const) {
    const raw = await rawRequest({ method: "HEAD", path: urlPath, headers: { Cookie: investor.cookie, "X-Forwarded-For": investor.ip } });
    expect(raw.status, urlPath).toBe(200);
    expect(raw.body.length).toBe(0);
    expect(raw.headers["content-type"]).toBe("application/pdf");
    expect(raw.headers["content-length"]).toBe(String(bytes.length));
    expectContentDisposition(raw.headers["content-disposition"] as string, type, FILE_NAME);
    expect(raw.headers["cache-control"]).toBe("private, no-store");
    expect(raw.headers["accept-ranges"]).toBe("bytes");
    expect(raw.headers["etag"]).toBeTruthy();
  }
  const anonymous = await rawRequest({ method: "HEAD", path: viewPath() });
  expect(anonymous.status).toBe(401);
});

test("each view and download is recorded once (not HEAD, 304 or a later range)", async () => {
  const count = (action: string) =>
    withDb(
      (db) =>
        (db.prepare("select count(*) as n from access_log where document_id = ? and action = ?").get(doc.id, action) as { n: number }).n,
    );
  const views = count("view");
  const downloads = count("download");
  const etag = (await investor.context.head(viewPath())).headers()["etag"]!;
  await investor.context.get(viewPath(), { headers: { "If-None-Match": etag } });
  await investor.context.get(downloadPath(), { headers: { Range: "bytes=100-199" } });
  expect(count("view")).toBe(views);
  expect(count("download")).toBe(downloads);
  await investor.context.get(viewPath());
  await investor.context.get(downloadPath());
  expect(count("view")).toBe(views + 1);
  expect(count("download")).toBe(downloads + 1);
});

test("clients that hang up mid-download do not hurt the server", async () => {
  test.setTimeout(60_000);
  // A bigger file, so the answer cannot fit in the socket buffers at once.
  const big = Buffer.concat([samplePdf("Big"), randomBytes(8 * 1024 * 1024)]);
  const upload = await uploadDocument(
    admin.context,
    { title: `Big ${randomBytes(3).toString("hex")}`, category: "reports" },
    { name: "big.pdf", mimeType: MIME.pdf, buffer: big },
  );
  expect(upload.status()).toBe(201);
  const bigDoc = (await upload.json()) as LpDocument;
  try {
    for (let i = 0; i < 20; i += 1) {
      await abortAfterFirstChunk(`/api/documents/${bigDoc.id}/${i % 2 ? "view" : "download"}`, investor.cookie, investor.ip);
    }
    await expectHealthy(investor.context);
    // The file is intact and still served whole.
    const whole = await investor.context.get(`/api/documents/${bigDoc.id}/download`);
    expect(whole.status()).toBe(200);
    expect(Buffer.compare(await whole.body(), big)).toBe(0);
    const again = await investor.context.get(viewPath());
    expect(Buffer.compare(await again.body(), bytes)).toBe(0);
  } finally {
    await admin.context.delete(`/api/documents/${bigDoc.id}`);
  }
});

function abortAfterFirstChunk(urlPath: string, cookie: string, ip: string): Promise<void> {
  const url = new URL(BASE_URL);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: urlPath, headers: { Cookie: cookie, "X-Forwarded-For": ip } }, (res) => {
      expect(res.statusCode).toBe(200);
      res.once("data", () => {
        req.destroy();
        resolve();
      });
      res.on("error", () => resolve());
    });
    req.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" ? resolve() : reject(error)));
  });
}

test("a document whose file vanished from disk: 404 'File not found', never a 500; it can still be deleted", async () => {
  const upload = await uploadDocument(
    admin.context,
    { title: `Vanishing ${randomBytes(3).toString("hex")}`, category: "reports" },
    { name: "vanishing.pdf", mimeType: MIME.pdf, buffer: samplePdf("vanishing") },
  );
  expect(upload.status()).toBe(201);
  const gone = (await upload.json()) as LpDocument;
  fs.rmSync(path.join(storageDir(), storedPathOf(gone.id)!));
  for (const action of ["view", "download"]) {
    const response = await investor.context.get(`/api/documents/${gone.id}/${action}`);
    expect(response.status(), action).toBe(404);
    expect(await response.json()).toEqual({ error: "File not found" });
  }
  const deleted = await admin.context.delete(`/api/documents/${gone.id}`);
  expect(deleted.status()).toBe(200);
});

test("a deleted document: 404 on view and download, gone from the list and from disk", async () => {
  const stored = storedPathOf(doc.id)!;
  expect(fs.existsSync(path.join(storageDir(), stored))).toBe(true);

  const deleted = await admin.context.delete(`/api/documents/${doc.id}`);
  expect(deleted.status()).toBe(200);
  expect(await deleted.json()).toEqual({ success: true, id: doc.id });

  for (const session of [investor, admin]) {
    for (const urlPath of [viewPath(), downloadPath()]) {
      const response = await session.context.get(urlPath);
      expect(response.status(), urlPath).toBe(404);
      expect(await response.json()).toEqual({ error: "Document not found" });
      expectSecurityHeaders(response, `404 ${urlPath}`);
    }
    const list = (await (await session.context.get("/api/documents")).json()) as LpDocument[];
    expect(list.map((d) => d.id)).not.toContain(doc.id);
  }
  expect(fs.existsSync(path.join(storageDir(), stored)), "the stored file is removed").toBe(false);
  const again = await admin.context.delete(`/api/documents/${doc.id}`);
  expect(again.status()).toBe(404);
});

import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { documents } from "../../db/schema";
import { accessHistory, recordAccess, summarizeAccess } from "~/modules/access-log/access-log.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { storageRoot } from "~/modules/storage/storage.server";
import { loader as fileLoader } from "~/routes/api/document-file";
import { loader as listLoader } from "~/routes/api/documents";
import {
  absoluteStored,
  allAccessLog,
  bodyBytes,
  clearDocuments,
  insertDocument,
  insertFundDocument,
  sleep,
} from "../helpers/documents";
import { MIME, sampleOoxml, samplePdf } from "../helpers/sample-files";
import { ORIGIN, apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

const CLIENT_IP = "198.51.100.23";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

let admin: LpUser;
let investor: LpUser;
let adminCookie: string;
let investorCookie: string;

// A 1000-byte PDF whose bytes are all known, so every range can be compared exactly.
const PDF = samplePdf("Range test", 1000);
let doc: ReturnType<typeof insertDocument>;

beforeAll(async () => {
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  investor = await insertUser({ email: "ivy@fund.example", name: "Ivy Investor", status: "approved" });
  adminCookie = await sessionCookieFor(admin);
  investorCookie = await sessionCookieFor(investor);
});
beforeEach(() => {
  clearDocuments();
  doc = insertDocument(PDF, { fileName: "q3-2026-report.pdf" });
});

type FileKind = "view" | "download";

/** GET (or another method) /api/documents/{id}/{view|download} through the route loader, as the investor by default. */
function fetchFile(
  id: string,
  kind: FileKind,
  {
    cookie = investorCookie,
    headers = {},
    method = "GET",
    clientAddress = CLIENT_IP,
  }: { cookie?: string | null; headers?: Record<string, string>; method?: string; clientAddress?: string } = {},
) {
  const requestHeaders = new Headers({ "User-Agent": BROWSER, ...headers });
  if (cookie) requestHeaders.set("Cookie", cookie);
  const request = new Request(`${ORIGIN}/api/documents/${encodeURIComponent(id)}/${kind}`, { method, headers: requestHeaders });
  return callRouteWith(fileLoader, request, { params: { id }, clientAddress });
}

async function etagOf(id = doc.id): Promise<string> {
  const response = await fetchFile(id, "view", { method: "HEAD" });
  const etag = response.headers.get("ETag");
  expect(etag).toMatch(/^"[^"]+"$/);
  return etag!;
}

/** The file name a browser would save, read from filename* (RFC 5987) when present, else filename. */
function savedName(disposition: string): string {
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended) return decodeURIComponent(extended[1]!);
  const quoted = /filename="((?:[^"\\]|\\.)*)"/.exec(disposition);
  return quoted ? quoted[1]!.replace(/\\(.)/g, "$1") : "";
}

describe("GET /api/documents/{id}/view and /download", () => {
  it("view: 200 inline with the stored type and the exact bytes", async () => {
    const response = await fetchFile(doc.id, "view");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe('inline; filename="q3-2026-report.pdf"');
    expect(response.headers.get("Content-Length")).toBe("1000");
    expect((await bodyBytes(response)).equals(PDF)).toBe(true);
  });

  it("answers with the stored type of an Office document, not a guess", async () => {
    const bytes = await sampleOoxml("pptx");
    const deck = insertDocument(bytes, { fileName: "deck.pptx", mimeType: MIME.pptx });
    const response = await fetchFile(deck.id, "view");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe(MIME.pptx);
    expect((await bodyBytes(response)).equals(bytes)).toBe(true);
  });

  it("download: an attachment under the document's file name", async () => {
    const response = await fetchFile(doc.id, "download");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="q3-2026-report.pdf"');
    expect((await bodyBytes(response)).equals(PDF)).toBe(true);
  });

  it.each([
    ["Hebrew", "דוח רבעוני Q3.pdf"],
    ["Arabic", "تقرير الربع الثالث.pdf"],
    ["accented Latin", "Résumé – Fonds II.pdf"],
  ])("download of a %s name: an ISO-8859-1 filename fallback plus filename* in UTF-8 (RFC 6266)", async (_label, fileName) => {
    const named = insertDocument(PDF, { fileName });
    const response = await fetchFile(named.id, "download");
    const disposition = response.headers.get("Content-Disposition") ?? "";
    // Header values travel as ISO-8859-1: nothing beyond it (and no control character) in the header.
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e\xa0-\xff]+"; filename\*=UTF-8''[\x21-\x7e]+$/);
    expect(savedName(disposition)).toBe(fileName);
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`);
  });

  it("quotes a name with quotes and backslashes so it reads back unchanged", async () => {
    const fileName = 'Fund "A" \\ summary.pdf';
    const named = insertDocument(PDF, { fileName });
    const response = await fetchFile(named.id, "download");
    expect(savedName(response.headers.get("Content-Disposition") ?? "")).toBe(fileName);
  });

  it.each<FileKind>(["view", "download"])("%s: private, never cached, not sniffed, with validators and byte ranges", async (kind) => {
    const response = await fetchFile(doc.id, kind);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Accept-Ranges")).toBe("bytes");
    expect(response.headers.get("ETag")).toMatch(/^"[^"]+"$/);
    const lastModified = response.headers.get("Last-Modified") ?? "";
    expect(lastModified).toMatch(/GMT$/);
    const mtime = fs.statSync(absoluteStored(doc.filePath)).mtimeMs;
    expect(Date.parse(lastModified)).toBe(Math.floor(mtime / 1000) * 1000);
  });

  it("the ETag is the same on every request for the same file, and differs between documents", async () => {
    const other = insertDocument(PDF);
    expect(await etagOf()).toBe(await etagOf());
    expect(await etagOf(other.id)).not.toBe(await etagOf());
  });

  // React Router matches /api/documents/{id}/view/ to the view route too (trailing slash ignored).
  it("a view URL with a trailing slash is still a view: inline, and logged as a view", async () => {
    const request = new Request(`${ORIGIN}/api/documents/${doc.id}/view/`, { headers: { Cookie: investorCookie } });
    const response = await callRouteWith(fileLoader, request, { params: { id: doc.id } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(/^inline;/);
    expect(allAccessLog().map((row) => row.action)).toEqual(["view"]);
  });

  it("HEAD: the headers of the file, with no body", async () => {
    const response = await fetchFile(doc.id, "download", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Length")).toBe("1000");
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    expect(response.body).toBeNull();
  });
});

describe("byte ranges", () => {
  const range = (value: string, extra: Record<string, string> = {}) => fetchFile(doc.id, "download", { headers: { Range: value, ...extra } });

  it.each([
    ["bytes=0-9", 0, 9],
    ["bytes=10-", 10, 999],
    ["bytes=-5", 995, 999],
    ["bytes=500-599", 500, 599],
    ["bytes=990-5000", 990, 999],
  ])("%s → 206 with exactly those bytes", async (header, start, end) => {
    const response = await range(header);
    expect(response.status).toBe(206);
    expect(response.headers.get("Content-Range")).toBe(`bytes ${start}-${end}/1000`);
    expect(response.headers.get("Content-Length")).toBe(String(end - start + 1));
    expect((await bodyBytes(response)).equals(PDF.subarray(start, end + 1))).toBe(true);
  });

  it("bytes=999999- → 416 with Content-Range: bytes */size and none of the file", async () => {
    const response = await range("bytes=999999-");
    expect(response.status).toBe(416);
    expect(response.headers.get("Content-Range")).toBe("bytes */1000");
    expect((await bodyBytes(response)).includes(PDF.subarray(0, 8))).toBe(false);
  });

  it.each(["bytes=abc", "bytes=", "bytes", "0-9", "items=0-9", "bytes=0-9,abc", "bytes=1-2-3"])(
    "a malformed Range (%s) is ignored: 200 with the whole file",
    async (header) => {
      const response = await range(header);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Range")).toBeNull();
      expect((await bodyBytes(response)).equals(PDF)).toBe(true);
    },
  );

  it("several ranges at once get the whole file (200)", async () => {
    const response = await range("bytes=0-1,500-501");
    expect(response.status).toBe(200);
    expect((await bodyBytes(response)).equals(PDF)).toBe(true);
  });

  it("If-Range with the current ETag → 206; with another ETag → 200 and the whole file", async () => {
    const etag = await etagOf();
    const partial = await range("bytes=0-9", { "If-Range": etag });
    expect(partial.status).toBe(206);
    expect((await bodyBytes(partial)).equals(PDF.subarray(0, 10))).toBe(true);

    const changed = await range("bytes=0-9", { "If-Range": `"${doc.id}-0-0"` });
    expect(changed.status).toBe(200);
    expect((await bodyBytes(changed)).equals(PDF)).toBe(true);
  });

  it("If-Range with the Last-Modified date → 206; with an older date → 200", async () => {
    const lastModified = (await fetchFile(doc.id, "view", { method: "HEAD" })).headers.get("Last-Modified")!;
    expect((await range("bytes=10-19", { "If-Range": lastModified })).status).toBe(206);
    expect((await range("bytes=10-19", { "If-Range": "Sat, 01 Jan 2000 00:00:00 GMT" })).status).toBe(200);
  });
});

describe("conditional requests", () => {
  const conditional = (headers: Record<string, string>) => fetchFile(doc.id, "view", { headers });

  it("If-None-Match with the current ETag → 304 with no body", async () => {
    const etag = await etagOf();
    const response = await conditional({ "If-None-Match": etag });
    expect(response.status).toBe(304);
    expect(response.body).toBeNull();
    expect(response.headers.get("ETag")).toBe(etag);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("If-None-Match listing several tags, one of them current (or weak) → 304", async () => {
    const etag = await etagOf();
    expect((await conditional({ "If-None-Match": `"old-tag", ${etag}` })).status).toBe(304);
    expect((await conditional({ "If-None-Match": `W/${etag}` })).status).toBe(304);
    expect((await conditional({ "If-None-Match": "*" })).status).toBe(304);
  });

  it("If-None-Match with another ETag → 200 with the file", async () => {
    const response = await conditional({ "If-None-Match": '"not-the-current-one"' });
    expect(response.status).toBe(200);
    expect((await bodyBytes(response)).equals(PDF)).toBe(true);
  });

  it("If-Modified-Since at or after Last-Modified → 304; before it → 200", async () => {
    const lastModified = (await fetchFile(doc.id, "view", { method: "HEAD" })).headers.get("Last-Modified")!;
    expect((await conditional({ "If-Modified-Since": new Date(Date.now() + 3_600_000).toUTCString() })).status).toBe(304);
    expect((await conditional({ "If-Modified-Since": lastModified })).status).toBe(304);
    const older = await conditional({ "If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT" });
    expect(older.status).toBe(200);
    expect((await bodyBytes(older)).equals(PDF)).toBe(true);
    expect((await conditional({ "If-Modified-Since": "not a date" })).status).toBe(200);
  });

  it("If-None-Match wins over If-Modified-Since", async () => {
    const response = await conditional({
      "If-None-Match": '"something-else"',
      "If-Modified-Since": new Date(Date.now() + 3_600_000).toUTCString(),
    });
    expect(response.status).toBe(200);
  });
});

describe("documents that cannot be served", () => {
  const FUND_SECRET = "FUND-II-CONFIDENTIAL-MARKER";

  it.each<FileKind>(["view", "download"])("%s of an unknown id → 404 'Document not found'", async (kind) => {
    const response = await fetchFile(crypto.randomUUID(), kind);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Document not found" });
  });

  it.each([
    ["../x", "../x"],
    ["%2e%2e", "%2e%2e"],
    ["..", ".."],
    ["1000 characters", "a".repeat(1000)],
    ["a path to the file", "documents/0123456789abcdef0123456789abcdef"],
    ["a uuid with a suffix", `${crypto.randomUUID()}/../../etc/passwd`],
  ])("a malformed id (%s) → 404", async (_label, id) => {
    for (const kind of ["view", "download"] as const) {
      const response = await fetchFile(id, kind);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Document not found" });
    }
  });

  it("the id of a Fund document → 404, never the fund file's bytes", async () => {
    const fundDoc = insertFundDocument(samplePdf(FUND_SECRET));
    for (const kind of ["view", "download"] as const) {
      const response = await fetchFile(fundDoc.id, kind, { cookie: adminCookie });
      expect(response.status).toBe(404);
      expect((await bodyBytes(response)).toString("latin1")).not.toContain(FUND_SECRET);
    }
    expect(allAccessLog()).toEqual([]);
  });

  it.each([
    ["a relative path out of storage", "../../etc/passwd"],
    ["an absolute path", "/etc/passwd"],
    ["a path that starts in documents/", "documents/../../../etc/passwd"],
    ["the storage root itself", "."],
  ])("a row whose filePath was tampered to %s → 404, nothing served", async (_label, filePath) => {
    getDb().update(documents).set({ filePath }).where(eq(documents.id, doc.id)).run();
    for (const kind of ["view", "download"] as const) {
      const response = await fetchFile(doc.id, kind);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "File not found" });
    }
  });

  it("a row pointing at a file inside storage that the server did not name (an upload in progress) → 404", async () => {
    const partial = path.join(storageRoot(), "incoming", "0123456789abcdef0123456789abcdef.part");
    fs.mkdirSync(path.dirname(partial), { recursive: true });
    fs.writeFileSync(partial, "HALF-UPLOADED-MARKER");
    getDb().update(documents).set({ filePath: "incoming/0123456789abcdef0123456789abcdef.part" }).where(eq(documents.id, doc.id)).run();
    const response = await fetchFile(doc.id, "download");
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("HALF-UPLOADED");
  });

  it("a row pointing at a real file outside storage, by absolute path → 404 and not its bytes", async () => {
    const outside = path.join(path.dirname(storageRoot()), "outside-secret.txt");
    fs.writeFileSync(outside, "TOP-SECRET-OUTSIDE-STORAGE");
    try {
      getDb().update(documents).set({ filePath: outside }).where(eq(documents.id, doc.id)).run();
      const response = await fetchFile(doc.id, "download");
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("TOP-SECRET");
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });

  it("a row whose file is missing on disk → 404 JSON, while the list still answers 200 with it", async () => {
    fs.rmSync(absoluteStored(doc.filePath));
    for (const kind of ["view", "download"] as const) {
      const response = await fetchFile(doc.id, kind);
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ error: "File not found" });
    }
    const list = await callRouteWith(listLoader, apiRequest("GET", "/api/documents", { cookie: investorCookie }));
    expect(list.status).toBe(200);
    expect(((await list.json()) as { id: string }[]).map((d) => d.id)).toEqual([doc.id]);
    expect(allAccessLog()).toEqual([]);
  });
});

describe("access log", () => {
  it("a full view adds one row: who, which document, view, IP and user agent", async () => {
    const response = await fetchFile(doc.id, "view");
    expect(response.status).toBe(200);
    expect(allAccessLog()).toEqual([
      expect.objectContaining({
        action: "view",
        documentKind: "lp",
        documentId: doc.id,
        actorKind: "lp_user",
        actorId: investor.id,
        ip: CLIENT_IP,
        userAgent: BROWSER,
        createdAt: expect.any(Date),
      }),
    ]);
  });

  it("a download adds one download row for the admin who fetched it", async () => {
    await fetchFile(doc.id, "download", { cookie: adminCookie, clientAddress: "2001:db8::7" });
    expect(allAccessLog()).toEqual([
      expect.objectContaining({ action: "download", documentId: doc.id, actorId: admin.id, ip: "2001:db8::7", userAgent: BROWSER }),
    ]);
  });

  it("a very long user agent is kept to 512 characters", async () => {
    await fetchFile(doc.id, "view", { headers: { "User-Agent": "U".repeat(5000) } });
    expect(allAccessLog()[0]?.userAgent).toBe("U".repeat(512));
  });

  it("a 206 from byte 0 counts as an access; a 206 from byte 10, a 304, a 416 and a HEAD do not", async () => {
    const etag = await etagOf();
    expect((await fetchFile(doc.id, "download", { headers: { Range: "bytes=10-" } })).status).toBe(206);
    expect((await fetchFile(doc.id, "download", { headers: { Range: "bytes=-5" } })).status).toBe(206);
    expect((await fetchFile(doc.id, "view", { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect((await fetchFile(doc.id, "view", { headers: { Range: "bytes=999999-" } })).status).toBe(416);
    expect((await fetchFile(doc.id, "view", { method: "HEAD" })).status).toBe(200);
    expect(allAccessLog()).toEqual([]);

    expect((await fetchFile(doc.id, "download", { headers: { Range: "bytes=0-9" } })).status).toBe(206);
    expect(allAccessLog()).toEqual([expect.objectContaining({ action: "download", documentId: doc.id, actorId: investor.id })]);
  });

  it("refused requests are not recorded", async () => {
    await fetchFile(doc.id, "view", { cookie: null });
    await fetchFile(crypto.randomUUID(), "view");
    expect(allAccessLog()).toEqual([]);
  });

  it("summarizeAccess counts views and downloads per document, with the last access", async () => {
    const other = insertDocument(PDF);
    insertDocument(PDF, { title: "Never opened" });
    await fetchFile(doc.id, "view");
    await fetchFile(doc.id, "view", { cookie: adminCookie });
    await fetchFile(doc.id, "download");
    await fetchFile(other.id, "download");
    await fetchFile(other.id, "download", { headers: { Range: "bytes=10-" } }); // resumed: not a new download
    // A Fund document access with the same id is another kind and is not mixed in.
    recordAccess({ action: "view", documentKind: "fund", document: doc, actor: { kind: "fund_access_user", id: "x", email: "x@example.test" }, meta: { ip: null, userAgent: null } });

    const summary = summarizeAccess("lp");
    const lastOf = (id: string) => Math.max(...allAccessLog().filter((r) => r.documentId === id && r.documentKind === "lp").map((r) => r.createdAt.getTime()));
    expect(summary.size).toBe(2);
    expect(summary.get(doc.id)).toEqual({ views: 2, downloads: 1, lastAccessAt: new Date(lastOf(doc.id)) });
    expect(summary.get(other.id)).toEqual({ views: 0, downloads: 1, lastAccessAt: new Date(lastOf(other.id)) });
    expect(summarizeAccess("fund").get(doc.id)).toMatchObject({ views: 1, downloads: 0 });
  });

  it("accessHistory lists a document's accesses newest first, with the user's name and e-mail", async () => {
    await fetchFile(doc.id, "view");
    await sleep(5);
    await fetchFile(doc.id, "download", { cookie: adminCookie, clientAddress: "192.0.2.44" });
    await sleep(5);
    await fetchFile(doc.id, "download");
    const otherDoc = insertDocument(PDF);
    await fetchFile(otherDoc.id, "view");

    const history = accessHistory("lp", doc.id);
    expect(history.total).toBe(3);
    expect(history.entries.map((e) => [e.action, e.actorName, e.actorEmail])).toEqual([
      ["download", "Ivy Investor", "ivy@fund.example"],
      ["download", "Ada Admin", "admin@lumenridge.example"],
      ["view", "Ivy Investor", "ivy@fund.example"],
    ]);
    expect(history.entries[1]).toMatchObject({ actorKind: "lp_user", ip: "192.0.2.44", userAgent: BROWSER, at: expect.any(Date) });
    const times = history.entries.map((e) => e.at.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const limited = accessHistory("lp", doc.id, 2);
    expect(limited.total).toBe(3);
    expect(limited.entries.map((e) => e.action)).toEqual(["download", "download"]);
  });
});

/**
 * Watermarked LP documents through the real routes (issue 15 §3, decision
 * 024): POST /api/documents with watermark=on, then GET/HEAD
 * /api/documents/{id}/view and /download as investors and as the admin. An
 * investor's copy carries their own name and e-mail and "Confidential" on
 * every page (read back with `mutool draw -F txt`); the admin gets the stored
 * bytes; a stamped copy is always a whole 200 (no ranges, no ETag, no 304);
 * every GET is logged once, HEAD never; uploads qpdf cannot stamp are refused
 * with nothing left behind; the stored file never changes; the temporary
 * copies are gone after each answer; a full stamping queue answers 503 with
 * Retry-After. Needs `qpdf` and `mutool` (mupdf-tools), as watermark.test.ts.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, gt } from "drizzle-orm";
import { concatTransformationMatrix, degrees, drawObject, PageSizes, PDFDocument, popGraphicsState, pushGraphicsState, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { accessLog, auditEvents } from "../../db/schema";
import { uploadMessages } from "~/content/validation";
import { watermarkCopy } from "~/content/watermark";
import { resetEnvForTests } from "~/modules/config/env.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { storageRoot } from "~/modules/storage/storage.server";
import { stampPdf, watermarkQueueState } from "~/modules/watermark/watermark.server";
import { loader as fileLoader } from "~/routes/api/document-file";
import { action as uploadAction } from "~/routes/api/documents";
import { absoluteStored, allDocuments, bodyBytes, clearDocuments, documentRow, filesUnder, rawMultipartRequest, storedFiles, type RawPart } from "../helpers/documents";
import { MIME, sampleOoxml } from "../helpers/sample-files";
import { callRouteWith, clearAccountTables, insertAdmin, insertUser, ORIGIN, sessionCookieFor } from "../helpers/users";

// qpdf and mutool run several times per test: room for a busy machine.
vi.setConfig({ testTimeout: 30_000 });

const work = fs.mkdtempSync(path.join(os.tmpdir(), "document-watermark-test-"));
// The watermark module's work folders go here, so the test can see that none is left behind.
const scratch = path.join(work, "tmp");
fs.mkdirSync(scratch);
const previousTmpdir = process.env.TMPDIR;
process.env.TMPDIR = scratch;

let admin: LpUser;
let zoe: LpUser;
let bob: LpUser;
const cookie = { admin: "", zoe: "", bob: "" };

beforeAll(async () => {
  process.env.WATERMARK_CONCURRENCY = "1";
  resetEnvForTests();
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  zoe = await insertUser({ email: "zoe@fund.example", name: "Zoë Łukasiewicz", status: "approved" });
  bob = await insertUser({ email: "bob@fund.example", name: "Bob Investor", status: "approved" });
  cookie.admin = await sessionCookieFor(admin);
  cookie.zoe = await sessionCookieFor(zoe);
  cookie.bob = await sessionCookieFor(bob);
});

afterAll(() => {
  if (previousTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmpdir;
  delete process.env.WATERMARK_CONCURRENCY;
  resetEnvForTests();
  fs.rmSync(work, { recursive: true, force: true });
});

// ─── fixtures ───────────────────────────────────────────────────────────────

const A4 = PageSizes.A4 as [number, number];
const LETTER = PageSizes.Letter as [number, number];

/** A pdf-lib PDF: one line of text per page ("Original content of page N"); `imageBytes` of noise makes it large and incompressible. */
async function makePdf(pages: Array<{ size: [number, number]; rotate?: number }>, { imageBytes = 0 } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  pages.forEach((spec, index) => {
    const page = doc.addPage(spec.size);
    page.drawText(`Original content of page ${index + 1}`, { x: 40, y: spec.size[1] - 60, size: 14, font });
    if (spec.rotate) page.setRotation(degrees(spec.rotate));
    if (imageBytes > 0) {
      const side = Math.ceil(Math.sqrt(imageBytes / pages.length / 3));
      const image = doc.context.register(
        doc.context.flateStream(randomBytes(side * side * 3), { Type: "XObject", Subtype: "Image", Width: side, Height: side, ColorSpace: "DeviceRGB", BitsPerComponent: 8 }),
      );
      const name = page.node.newXObject("Im", image);
      page.pushOperators(pushGraphicsState(), concatTransformationMatrix(200, 0, 0, 200, 40, 100), drawObject(name), popGraphicsState());
    }
  });
  return Buffer.from(await doc.save());
}

/** Four pages: A4, Letter landscape, A4 turned 90°, Letter. */
let original: Buffer;
beforeAll(async () => {
  original = await makePdf([{ size: A4 }, { size: [LETTER[1], LETTER[0]] }, { size: A4, rotate: 90 }, { size: LETTER }]);
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Each page's text as `mutool draw -F txt` reads it from these bytes (written to a temp file first). */
function pageTexts(bytes: Buffer): string[] {
  const file = path.join(work, `answer-${randomBytes(6).toString("hex")}.pdf`);
  fs.writeFileSync(file, bytes);
  try {
    const text = execFileSync("mutool", ["draw", "-q", "-F", "txt", "-o", "-", file], { maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] }).toString("utf8");
    // mutool ends every page with a form feed.
    return text.split("\f").slice(0, -1);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

function expectStampedFor(bytes: Buffer, who: LpUser, pages = 4) {
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const texts = pageTexts(bytes);
  expect(texts).toHaveLength(pages);
  texts.forEach((text, index) => {
    expect(text, `page ${index + 1}`).toContain(watermarkCopy.stamp.title);
    expect(text, `page ${index + 1}`).toContain(who.email);
    expect(text, `page ${index + 1}`).toContain(who.name);
    expect(text, `page ${index + 1}`).toContain(`Original content of page ${index + 1}`);
  });
  return texts;
}

const incoming = () => filesUnder(path.join(storageRoot(), "incoming"));
const leftoverWorkDirs = () => fs.readdirSync(scratch).filter((name) => name.startsWith("lumen-watermark-"));

// ─── requests ───────────────────────────────────────────────────────────────

type Kind = "view" | "download";
type ErrorJson = { error: string; fields?: Record<string, string[]> };

function file(id: string, kind: Kind, who: string, { method = "GET", headers = {} }: { method?: string; headers?: Record<string, string> } = {}) {
  const h = new Headers(headers);
  h.set("Cookie", who);
  return callRouteWith(fileLoader, new Request(`${ORIGIN}/api/documents/${id}/${kind}`, { method, headers: h }), { params: { id } });
}

/** POST /api/documents as the admin: a title, category reports, the given fields, and the file. */
function upload(fields: Array<[string, string]>, bytes: Uint8Array, fileName = "report.pdf", type: string = MIME.pdf) {
  const parts: RawPart[] = [
    { name: "title", value: "Capital account statement" },
    { name: "category", value: "reports" },
    ...fields.map(([name, value]) => ({ name, value })),
    { name: "file", filename: fileName, type, bytes },
  ];
  return callRouteWith(uploadAction, rawMultipartRequest("/api/documents", parts, { cookie: cookie.admin }));
}

async function uploadStamped(bytes: Uint8Array = original): Promise<string> {
  const response = await upload([["watermark", "on"]], bytes);
  expect(response.status).toBe(201);
  const body = (await response.json()) as { id: string; watermark: boolean };
  expect(body.watermark).toBe(true);
  return body.id;
}

let auditMark = 0;
/** access_log and document.accessed audit rows of a document since the test began. */
function logged(documentId: string) {
  return {
    access: getDb().select().from(accessLog).where(eq(accessLog.documentId, documentId)).all(),
    audit: getDb()
      .select()
      .from(auditEvents)
      .where(and(gt(auditEvents.id, auditMark), eq(auditEvents.event, "document.accessed"), eq(auditEvents.targetId, documentId)))
      .all(),
  };
}

beforeEach(() => {
  clearDocuments();
  auditMark = getDb().select({ id: auditEvents.id }).from(auditEvents).all().reduce((max, row) => Math.max(max, row.id), 0);
});

// ─── investors get their own stamped copy ───────────────────────────────────

describe("an investor's view and download of a watermarked PDF", () => {
  it.each<Kind>(["download", "view"])("%s: every page says Confidential, the investor's name and e-mail; another investor gets their own", async (kind) => {
    const id = await uploadStamped();
    const stored = absoluteStored(documentRow(id)!.filePath);
    expect(sha256(fs.readFileSync(stored))).toBe(sha256(original));

    const asZoe = await file(id, kind, cookie.zoe);
    expect(asZoe.status).toBe(200);
    expect(asZoe.headers.get("Content-Type")).toBe("application/pdf");
    expect(asZoe.headers.get("Content-Disposition")).toMatch(kind === "view" ? /^inline;/ : /^attachment;/);
    expect(asZoe.headers.get("Accept-Ranges")).toBe("none");
    expect(asZoe.headers.get("Cache-Control")).toBe("private, no-store");
    expect(asZoe.headers.get("ETag")).toBeNull();
    expect(asZoe.headers.get("Last-Modified")).toBeNull();
    const zoeBytes = await bodyBytes(asZoe);
    expect(asZoe.headers.get("Content-Length")).toBe(String(zoeBytes.length));
    expect(zoeBytes.equals(original)).toBe(false);
    const zoeText = expectStampedFor(zoeBytes, zoe).join("\n");
    expect(zoeText).toContain(`${zoe.name} <${zoe.email}>`);
    expect(zoeText).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);

    const asBob = await file(id, kind, cookie.bob);
    expect(asBob.status).toBe(200);
    const bobText = expectStampedFor(await bodyBytes(asBob), bob).join("\n");
    expect(bobText).not.toContain(zoe.email);
    expect(bobText).not.toContain(zoe.name);
    expect(zoeText).not.toContain(bob.email);

    // The stored file is only read; the temporary copies and work folders are gone.
    expect(sha256(fs.readFileSync(stored))).toBe(sha256(original));
    expect(incoming()).toEqual([]);
    expect(leftoverWorkDirs()).toEqual([]);
    expect(watermarkQueueState()).toEqual({ running: 0, queued: 0 });
  });

  it("the admin's view and download are the stored bytes exactly, with ranges and validators as for any file", async () => {
    const id = await uploadStamped();
    for (const kind of ["download", "view"] as const) {
      const response = await file(id, kind, cookie.admin);
      expect(response.status).toBe(200);
      expect(response.headers.get("Accept-Ranges")).toBe("bytes");
      expect(response.headers.get("ETag")).toMatch(/^"[^"]+"$/);
      expect((await bodyBytes(response)).equals(original)).toBe(true);
    }
    const ranged = await file(id, "download", cookie.admin, { headers: { Range: "bytes=0-99" } });
    expect(ranged.status).toBe(206);
    expect((await bodyBytes(ranged)).equals(original.subarray(0, 100))).toBe(true);
  });

  it("Range: bytes=0-99 → 200 with the whole stamped copy, no Content-Range", async () => {
    const id = await uploadStamped();
    for (const range of ["bytes=0-99", "bytes=100-", "bytes=-10", "bytes=99999999-"]) {
      const response = await file(id, "download", cookie.zoe, { headers: { Range: range } });
      expect(response.status, range).toBe(200);
      expect(response.headers.get("Content-Range"), range).toBeNull();
      expect(response.headers.get("Accept-Ranges")).toBe("none");
      const bytes = await bodyBytes(response);
      expect(bytes.length, range).toBeGreaterThan(100);
      expect(response.headers.get("Content-Length")).toBe(String(bytes.length));
      expectStampedFor(bytes, zoe);
    }
    expect(incoming()).toEqual([]);
  });

  it("If-None-Match (the stored file's real ETag, or *) and If-Modified-Since never give 304", async () => {
    const id = await uploadStamped();
    const etag = (await file(id, "download", cookie.admin, { method: "HEAD" })).headers.get("ETag")!;
    // The admin's ETag is real: it revalidates the admin's copy.
    expect((await file(id, "download", cookie.admin, { headers: { "If-None-Match": etag } })).status).toBe(304);

    const conditionals: Array<Record<string, string>> = [
      { "If-None-Match": etag },
      { "If-None-Match": "*" },
      { "If-Modified-Since": new Date(Date.now() + 86_400_000).toUTCString() },
    ];
    for (const headers of conditionals) {
      for (const kind of ["view", "download"] as const) {
        const response = await file(id, kind, cookie.zoe, { headers });
        expect(response.status, JSON.stringify(headers)).toBe(200);
        expect(response.headers.get("ETag")).toBeNull();
        expectStampedFor(await bodyBytes(response), zoe);
      }
    }
  });

  it("HEAD → 200 with the headers and no body, stamps nothing and logs nothing", async () => {
    const id = await uploadStamped();
    for (const kind of ["view", "download"] as const) {
      const response = await file(id, kind, cookie.zoe, { method: "HEAD" });
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("application/pdf");
      expect(response.headers.get("Accept-Ranges")).toBe("none");
      expect(response.headers.get("ETag")).toBeNull();
      expect(response.body).toBeNull();
      expect((await bodyBytes(response)).length).toBe(0);
    }
    expect(logged(id)).toEqual({ access: [], audit: [] });
    expect(leftoverWorkDirs()).toEqual([]);
    expect(incoming()).toEqual([]);
  });

  it("each GET adds one access_log row and one document.accessed audit row, under the investor who read it", async () => {
    const id = await uploadStamped();
    const reads: Array<[Kind, LpUser, string, Record<string, string>]> = [
      ["view", zoe, cookie.zoe, {}],
      ["download", zoe, cookie.zoe, {}],
      ["download", zoe, cookie.zoe, { Range: "bytes=0-99" }],
      ["download", bob, cookie.bob, { "If-None-Match": "*" }],
    ];
    for (const [n, [kind, who, whoCookie, headers]] of reads.entries()) {
      const response = await file(id, kind, whoCookie, { headers });
      expect(response.status).toBe(200);
      await bodyBytes(response);
      const { access, audit } = logged(id);
      expect(access).toHaveLength(n + 1);
      expect(audit).toHaveLength(n + 1);
      expect(access.at(-1)).toMatchObject({ action: kind, actorKind: "lp_user", actorId: who.id, documentKind: "lp" });
      expect(audit.at(-1)).toMatchObject({ actorId: who.id, actorEmail: who.email, targetType: "document", targetId: id });
      expect(JSON.parse(audit.at(-1)!.details)).toMatchObject({ action: kind, kind: "lp", documentId: id, actorId: who.id });
    }
  });

  it("after many downloads the stored file's SHA-256 is unchanged and STORAGE_DIR/incoming is empty", async () => {
    const id = await uploadStamped();
    const stored = absoluteStored(documentRow(id)!.filePath);
    const before = sha256(fs.readFileSync(stored));
    const mtime = fs.statSync(stored).mtimeMs;
    for (let i = 0; i < 4; i++) {
      for (const whoCookie of [cookie.zoe, cookie.bob]) {
        const response = await file(id, i % 2 ? "view" : "download", whoCookie);
        expect(response.status).toBe(200);
        expect((await bodyBytes(response)).subarray(0, 5).toString("latin1")).toBe("%PDF-");
      }
    }
    // Read partly: an answer whose reader goes away leaves nothing either (the copy was unlinked when opened).
    const abandoned = await file(id, "download", cookie.zoe);
    await abandoned.body!.cancel();
    expect(sha256(fs.readFileSync(stored))).toBe(before);
    expect(fs.statSync(stored).mtimeMs).toBe(mtime);
    expect(storedFiles()).toEqual([documentRow(id)!.filePath]);
    expect(incoming()).toEqual([]);
    expect(leftoverWorkDirs()).toEqual([]);
  });
});

// ─── uploads that cannot be stamped ─────────────────────────────────────────

describe("POST /api/documents with watermark=on refuses what qpdf cannot stamp", () => {
  const expectNothingStored = () => {
    expect(allDocuments()).toEqual([]);
    expect(storedFiles()).toEqual([]);
    expect(incoming()).toEqual([]);
    expect(leftoverWorkDirs()).toEqual([]);
  };

  it("an encrypted PDF (qpdf --encrypt u o 256) → 400 naming the encryption, nothing stored", async () => {
    const plain = path.join(work, "plain.pdf");
    const encrypted = path.join(work, "encrypted.pdf");
    fs.writeFileSync(plain, original);
    execFileSync("qpdf", ["--encrypt", "u", "o", "256", "--", plain, encrypted]);
    const response = await upload([["watermark", "on"]], fs.readFileSync(encrypted), "locked.pdf");
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorJson;
    expect(body.error).toBe(watermarkCopy.messages.encrypted);
    expect(body.fields?.file).toEqual([watermarkCopy.messages.encrypted]);
    expect(body.error).toMatch(/password-protected or encrypted/);
    expectNothingStored();
  });

  it("an encrypted PDF without watermark is stored as it is (the refusal is the watermark's)", async () => {
    const plain = path.join(work, "plain-2.pdf");
    const encrypted = path.join(work, "encrypted-2.pdf");
    fs.writeFileSync(plain, original);
    execFileSync("qpdf", ["--encrypt", "u", "o", "256", "--", plain, encrypted]);
    const response = await upload([], fs.readFileSync(encrypted), "locked.pdf");
    expect(response.status).toBe(201);
  });

  it("a truncated PDF → 400 saying it could not be read, nothing stored", async () => {
    const truncated = original.subarray(0, Math.floor(original.length * 0.6));
    const response = await upload([["watermark", "on"]], truncated, "cut.pdf");
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorJson;
    expect(body.error).toBe(watermarkCopy.messages.unreadable);
    expect(body.fields?.file).toEqual([watermarkCopy.messages.unreadable]);
    expectNothingStored();
  });

  it("a non-PDF (.docx) with watermark=on → 400 on the watermark field, nothing stored", async () => {
    const response = await upload([["watermark", "on"]], await sampleOoxml("docx"), "memo.docx", MIME.docx);
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorJson;
    expect(body.error).toBe(uploadMessages.watermarkPdfOnly);
    expect(body.fields?.watermark).toEqual([uploadMessages.watermarkPdfOnly]);
    expectNothingStored();
  });
});

// ─── the stamping queue ─────────────────────────────────────────────────────

describe("a full stamping queue (WATERMARK_CONCURRENCY=1: one running, four waiting)", () => {
  async function until(condition: () => boolean, what: string, timeoutMs = 5_000) {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(watermarkQueueState())}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it("the next download answers 503 with Retry-After and logs nothing; the waiting ones are answered once the slot frees", async () => {
    const id = await uploadStamped();
    // A large PDF whose stamped stream nobody reads: qpdf blocks on the pipe and holds the only slot.
    const large = path.join(work, "large.pdf");
    fs.writeFileSync(large, await makePdf([{ size: A4 }, { size: A4 }], { imageBytes: 4 * 1024 * 1024 }));
    const held = await stampPdf(large, { name: "Holder", email: "holder@example.com", at: new Date() });
    expect(watermarkQueueState()).toEqual({ running: 1, queued: 0 });

    const waiting = [cookie.zoe, cookie.bob, cookie.zoe, cookie.bob].map((who, i) => file(id, i % 2 ? "view" : "download", who));
    await until(() => watermarkQueueState().queued === 4, "four requests waiting");

    for (const kind of ["download", "view"] as const) {
      const refused = await file(id, kind, cookie.zoe);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(refused.headers.get("Content-Type")).toMatch(/^application\/json/);
      expect(((await refused.json()) as ErrorJson).error).toBe(watermarkCopy.messages.busy);
    }
    expect(logged(id).access).toEqual([]);
    expect(watermarkQueueState()).toEqual({ running: 1, queued: 4 });

    held.destroy();
    const answers = await Promise.all(waiting);
    for (const [i, response] of answers.entries()) {
      expect(response.status).toBe(200);
      expectStampedFor(await bodyBytes(response), i % 2 ? bob : zoe);
    }
    expect(logged(id).access).toHaveLength(4);
    await until(() => watermarkQueueState().running === 0 && watermarkQueueState().queued === 0, "the queue to empty");
    expect(incoming()).toEqual([]);
    await until(() => leftoverWorkDirs().length === 0, "work folders removed");
  });
});

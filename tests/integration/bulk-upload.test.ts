import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents, documentRecipients, lpUsers } from "../../db/schema";
import { advanceClockForTests, now, resetClockForTests } from "~/modules/config/clock.server";
import { publishBatch, readBatch, removeStaleBulkBatches, stagingRoot } from "~/modules/bulk-upload/batch.server";
import { BULK_UPLOAD_BODY_LIMIT } from "~/modules/bulk-upload/constants";
import { BatchManifest } from "~/modules/bulk-upload/schema";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { setReferenceCode } from "~/modules/lp-users/reference-code.server";
import { receiveFiles } from "~/modules/storage/receive-files.server";
import { storageRoot } from "~/modules/storage/storage.server";
import { readFlash } from "~/modules/toast/flash.server";
import { action as batchAction, loader as batchLoader } from "~/routes/admin/documents-bulk-batch";
import { action as uploadAction, loader as uploadLoader } from "~/routes/admin/documents-bulk";
import { loader as documentsApi } from "~/routes/api/documents";
import { bodyLimitFor } from "../../server/app";
import { absoluteStored, allDocuments, bytesOf, clearDocuments, filesUnder, type UploadFile } from "../helpers/documents";
import { expectData, expectRedirect, requestWithCookie } from "../helpers/http";
import { MIME, sampleOle2, samplePdf } from "../helpers/sample-files";
import { ORIGIN, apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * Bulk per-investor upload (issue 15 §1), through the route actions and
 * loaders: staging (files matched by reference code or e-mail, a manifest in
 * STORAGE_DIR/staging/<batchId>/), the preview, publishing (one LP document
 * per matched file, addressed to its investor alone) and cancelling, and the
 * batch limits (nothing left on disk after a refusal).
 */

const MB = 1024 * 1024;
const BATCH_PATH = /^\/admin\/documents\/bulk\/([0-9a-f]{32})$/;

let admin: LpUser;
let adminCookie: string;
let jane: LpUser;
let john: LpUser;
let pendingPaul: LpUser;
let other: LpUser;

beforeAll(async () => {
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  adminCookie = await sessionCookieFor(admin);
  jane = await insertUser({ email: "jane.doe@example.com", name: "Jane Doe", status: "approved" });
  john = await insertUser({ email: "john.roe@example.com", name: "John Roe", status: "approved" });
  pendingPaul = await insertUser({ email: "paul@example.com", name: "Paul Pending", status: "pending" });
  other = await insertUser({ email: "olga@example.com", name: "Olga Other", status: "approved" });
  setReferenceCode(admin, jane.id, "LRV-0042");
  setReferenceCode(admin, john.id, "LRV-004");
  setReferenceCode(admin, pendingPaul.id, "LRV-0099");
});

beforeEach(async () => {
  clearDocuments();
  adminCookie = await sessionCookieFor(admin);
  getDb().update(lpUsers).set({ status: "approved" }).where(eq(lpUsers.id, john.id)).run();
});

afterEach(() => {
  resetClockForTests();
});

const pdf = (name: string, bytes: Uint8Array = samplePdf(name)): UploadFile => ({ name, bytes, type: MIME.pdf });

const DEFAULT_FIELDS = { title: "Capital account statement Q3 2026", category: "reports", description: "Your capital account.", watermark: "on" };

/** The bulk form's multipart post, as a browser sends it. */
function bulkRequest(files: UploadFile[], fields: Record<string, string> = DEFAULT_FIELDS, cookie: string | null = adminCookie): Request {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append("files", new File([bytesOf(file.bytes)], file.name, { type: file.type }));
  const headers = new Headers();
  if (cookie) headers.set("Cookie", cookie);
  return new Request(`${ORIGIN}/admin/documents/bulk`, { method: "POST", headers, body: form });
}

/**
 * The same post with its files made one at a time while the body streams: a batch of 200 MB held in
 * memory makes every child process the server starts (qpdf reads each PDF) slow to fork, which a real
 * server streaming to disk does not see.
 */
function streamedBulkRequest(count: number, fileAt: (index: number) => UploadFile, fields: Record<string, string> = DEFAULT_FIELDS): Request {
  const boundary = `----bulk${Date.now().toString(36)}`;
  const encoder = new TextEncoder();
  const head = (disposition: string, type?: string) =>
    encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ""}\r\n`);
  const fieldParts = Object.entries(fields).map(([name, value]) => [head(`name="${name}"`), encoder.encode(`${value}\r\n`)]);
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const [partHead, value] of fieldParts) {
        controller.enqueue(partHead!);
        controller.enqueue(value!);
      }
    },
    pull(controller) {
      if (next === count) {
        controller.enqueue(encoder.encode(`--${boundary}--\r\n`));
        controller.close();
        return;
      }
      const file = fileAt(next++);
      controller.enqueue(head(`name="files"; filename="${file.name}"`, file.type));
      controller.enqueue(bytesOf(file.bytes));
      controller.enqueue(encoder.encode("\r\n"));
    },
  });
  const headers = new Headers({ "Content-Type": `multipart/form-data; boundary=${boundary}`, Cookie: adminCookie });
  return new Request(`${ORIGIN}/admin/documents/bulk`, { method: "POST", headers, body, duplex: "half" } as RequestInit);
}

function postBulk(files: UploadFile[], fields?: Record<string, string>) {
  return callRouteWith(uploadAction as never, bulkRequest(files, fields));
}

/** Stage a batch; returns its id. */
async function stage(files: UploadFile[], fields?: Record<string, string>): Promise<string> {
  const redirect = expectRedirect(await postBulk(files, fields));
  expect(redirect.status).toBe(303);
  const batchId = BATCH_PATH.exec(redirect.location)?.[1];
  expect(batchId, redirect.location).toBeDefined();
  return batchId!;
}

function manifestOf(batchId: string): BatchManifest {
  return BatchManifest.parse(JSON.parse(fs.readFileSync(path.join(stagingRoot(), batchId, "manifest.json"), "utf8")));
}

function stagingFiles(): string[] {
  return filesUnder(path.join(storageRoot(), "staging"));
}

function loadBatch(batchId: string) {
  return callRouteWith(batchLoader as never, requestWithCookie(`/admin/documents/bulk/${batchId}`, adminCookie), { params: { batchId } });
}

/** A batch that is not there: the loader throws a 404 (the admin layout shows its notice in the frame). */
async function loadMissingBatch(batchId: string) {
  const thrown: unknown = await loadBatch(batchId).then(
    () => new Error(`the loader answered for ${batchId}`),
    (error: unknown) => error,
  );
  return expectData<{ title: string; message: string; back: { to: string; label: string } }>(thrown);
}

function postBatch(batchId: string, fields: Record<string, string>) {
  const request = new Request(`${ORIGIN}/admin/documents/bulk/${batchId}`, {
    method: "POST",
    headers: { Cookie: adminCookie },
    body: new URLSearchParams(fields),
  });
  return callRouteWith(batchAction as never, request, { params: { batchId } });
}

async function flashOf(cookie: string | null) {
  return (await readFlash(requestWithCookie("/admin/documents", cookie ?? ""))).flash;
}

type PreviewRow = { fileName: string; investor: { name: string; email: string; referenceCode: string | null } | null; problem: string | null; candidates: string[] };
type Preview = { found: true; preview: { rows: PreviewRow[]; publishable: number; fields: { title: string; category: string; watermark: boolean } } };

/** The three files of the e2e flow and a few that cannot go out. */
function mixedBatch(): UploadFile[] {
  return [
    pdf("Q3-2026-LRV-0042.pdf"),
    pdf("statement_john.roe@example.com.pdf"),
    pdf("Q3-2026-nobody.pdf"),
    pdf("LRV-0042 and LRV-004.pdf"),
    pdf("Q3-2026-LRV-0099.pdf"),
    { name: "LRV-0042-letter.pdf", bytes: sampleOle2(), type: MIME.pdf },
    { name: "LRV-0042-empty.pdf", bytes: new Uint8Array(0), type: MIME.pdf },
  ];
}

describe("staging a batch", () => {
  it("streams the files into a batch folder with a manifest of each file's investor or problem; publishes nothing", async () => {
    const batchId = await stage(mixedBatch());
    const manifest = manifestOf(batchId);
    expect(manifest).toMatchObject({
      batchId,
      createdBy: admin.id,
      fields: { title: "Capital account statement Q3 2026", category: "reports", description: "Your capital account.", watermark: true },
    });
    expect(manifest.files.map((f) => [f.clientName, f.userId, f.problem])).toEqual([
      ["Q3-2026-LRV-0042.pdf", jane.id, null],
      ["statement_john.roe@example.com.pdf", john.id, null],
      ["Q3-2026-nobody.pdf", null, "no-match"],
      ["LRV-0042 and LRV-004.pdf", null, "ambiguous"],
      // A pending investor's code matches nobody: only approved investors are candidates.
      // Paul (pending) holds LRV-0099: the file is his, and flagged, never anyone else's.
      ["Q3-2026-LRV-0099.pdf", pendingPaul.id, "investor-gone"],
      ["LRV-0042-letter.pdf", null, "not-pdf"],
      ["LRV-0042-empty.pdf", null, "empty"],
    ]);
    expect(manifest.files[3]!.candidates?.sort()).toEqual([jane.id, john.id].sort());
    // The refused files' bytes are gone; the others wait in the batch folder under server-made names.
    const kept = manifest.files.filter((f) => f.storedName).map((f) => `${batchId}/${f.storedName}`);
    expect(kept).toHaveLength(5);
    expect(stagingFiles()).toEqual([...kept, `${batchId}/manifest.json`].sort());
    expect(fs.readFileSync(path.join(stagingRoot(), batchId, manifest.files[0]!.storedName!)).equals(samplePdf("Q3-2026-LRV-0042.pdf"))).toBe(true);
    expect(allDocuments()).toEqual([]);
    expect(filesUnder(path.join(storageRoot(), "documents"))).toEqual([]);
  });

  it("with the watermark on, a PDF qpdf cannot stamp (encrypted) is flagged and its bytes dropped; without it, the same file is kept", async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), "bulk-encrypted-"));
    try {
      fs.writeFileSync(path.join(work, "plain.pdf"), samplePdf("locked statement"));
      execFileSync("qpdf", ["--encrypt", "u", "o", "256", "--", path.join(work, "plain.pdf"), path.join(work, "locked.pdf")]);
      const locked = pdf("Q3-2026-LRV-0042.pdf", fs.readFileSync(path.join(work, "locked.pdf")));
      const stamped = manifestOf(await stage([locked, pdf("statement_john.roe@example.com.pdf")]));
      expect(stamped.files.map((f) => [f.clientName, f.problem, f.storedName === null])).toEqual([
        ["Q3-2026-LRV-0042.pdf", "not-stampable", true],
        ["statement_john.roe@example.com.pdf", null, false],
      ]);
      const { watermark: _stamped, ...unstamped } = DEFAULT_FIELDS;
      const plain = manifestOf(await stage([locked], unstamped));
      expect(plain.files.map((f) => [f.userId, f.problem])).toEqual([[jane.id, null]]);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("the preview shows each file's investor (name, e-mail, code) and flags the others", async () => {
    const batchId = await stage(mixedBatch());
    const response = await loadBatch(batchId);
    const { preview } = response as unknown as Preview;
    expect(preview.publishable).toBe(2);
    expect(preview.fields).toEqual({ title: "Capital account statement Q3 2026", category: "Reports", description: "Your capital account.", watermark: true });
    expect(preview.rows.map((r) => [r.fileName, r.investor?.email ?? null, r.investor?.referenceCode ?? null, r.problem])).toEqual([
      ["Q3-2026-LRV-0042.pdf", "jane.doe@example.com", "LRV-0042", null],
      ["statement_john.roe@example.com.pdf", "john.roe@example.com", "LRV-004", null],
      ["Q3-2026-nobody.pdf", null, null, "no-match"],
      ["LRV-0042 and LRV-004.pdf", null, null, "ambiguous"],
      ["Q3-2026-LRV-0099.pdf", pendingPaul.email, "LRV-0099", "investor-gone"],
      ["LRV-0042-letter.pdf", null, null, "not-pdf"],
      ["LRV-0042-empty.pdf", null, null, "empty"],
    ]);
    expect(preview.rows[3]!.candidates.sort()).toEqual(["jane.doe@example.com", "john.roe@example.com"]);
  });

  it("an investor who lost access after the upload is flagged, and not counted", async () => {
    const batchId = await stage(mixedBatch());
    getDb().update(lpUsers).set({ status: "rejected" }).where(eq(lpUsers.id, john.id)).run();
    const batch = await readBatch(batchId);
    expect(batch.publishable).toBe(1);
    expect(batch.entries[1]).toMatchObject({ problem: "investor-gone", investor: { email: "john.roe@example.com" } });
  });

  it("refuses missing fields or no files with 400 and the field's message, leaving nothing", async () => {
    const noTitle = expectData<{ failure: { message: string; fields: Record<string, string[]>; values: Record<string, string> } }>(
      await postBulk([pdf("LRV-0042.pdf")], { ...DEFAULT_FIELDS, title: " " }),
    );
    expect(noTitle.status).toBe(400);
    expect(noTitle.data.failure).toMatchObject({ message: "Title is required", fields: { title: ["Title is required"] }, values: { category: "reports", watermark: "on" } });
    const noFiles = expectData<{ failure: { fields: Record<string, string[]> } }>(await postBulk([]));
    expect(noFiles.status).toBe(400);
    expect(noFiles.data.failure.fields).toEqual({ files: ["Choose at least one PDF file"] });
    // An empty file picker still sends a part without a name or bytes: no file either.
    const emptyPicker = expectData<{ failure: { fields: Record<string, string[]> } }>(
      await postBulk([{ name: "", bytes: new Uint8Array(0), type: "application/octet-stream" }]),
    );
    expect(emptyPicker.data.failure.fields).toEqual({ files: ["Choose at least one PDF file"] });
    expect(stagingFiles()).toEqual([]);
  });

  it("is for admins only", async () => {
    const investorCookie = await sessionCookieFor(jane);
    const answer = await callRouteWith(uploadAction as never, bulkRequest([pdf("LRV-0042.pdf")], DEFAULT_FIELDS, investorCookie)).catch((thrown: unknown) => thrown);
    expect(answer).toBeInstanceOf(Response);
    expect([302, 303]).toContain((answer as Response).status);
    expect(stagingFiles()).toEqual([]);
  });
});

describe("publishing a batch", () => {
  it("publishes one document per matched file, each visible to its investor alone, and removes the batch", async () => {
    const batchId = await stage(mixedBatch());
    const redirect = expectRedirect(await postBatch(batchId, { intent: "publish", expected: "2" }));
    expect(redirect.status).toBe(303);
    expect(redirect.location).toBe("/admin/documents#published-documents");
    expect((await flashOf(redirect.cookie)).toast).toMatchObject({
      title: "Documents published",
      description: "2 documents were published, each to its investor.",
    });

    const rows = allDocuments();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ title: "Capital account statement Q3 2026", category: "reports", description: "Your capital account.", audience: "selected", watermark: true, uploadedBy: admin.id, mimeType: "application/pdf" });
      expect(fs.existsSync(absoluteStored(row.filePath))).toBe(true);
    }
    const recipients = getDb().select().from(documentRecipients).all();
    const byFile = new Map(rows.map((row) => [row.fileName, recipients.filter((r) => r.documentId === row.id).map((r) => r.userId)]));
    expect(byFile.get("Q3-2026-LRV-0042.pdf")).toEqual([jane.id]);
    expect(byFile.get("statement_john.roe@example.com.pdf")).toEqual([john.id]);
    expect(fs.readFileSync(absoluteStored(rows.find((r) => r.fileName === "Q3-2026-LRV-0042.pdf")!.filePath)).equals(samplePdf("Q3-2026-LRV-0042.pdf"))).toBe(true);

    // Each investor lists their own document only; another investor neither.
    const listedFor = async (user: LpUser) => {
      const response = await callRouteWith(documentsApi as never, apiRequest("GET", "/api/documents", { cookie: await sessionCookieFor(user) }));
      return ((await response.json()) as { fileName: string }[]).map((d) => d.fileName);
    };
    expect(await listedFor(jane)).toEqual(["Q3-2026-LRV-0042.pdf"]);
    expect(await listedFor(john)).toEqual(["statement_john.roe@example.com.pdf"]);
    expect(await listedFor(other)).toEqual([]);

    const audits = getDb().select().from(auditEvents).where(eq(auditEvents.event, "document.bulk_published")).all();
    expect(audits).toHaveLength(1);
    expect(JSON.parse(audits[0]!.details)).toMatchObject({ batchId, count: 2, notPublished: 5 });
    expect(audits[0]!.actorId).toBe(admin.id);

    // The batch is gone: nothing waits in staging, and its page is a 404.
    expect(stagingFiles()).toEqual([]);
    expect((await loadMissingBatch(batchId)).status).toBe(404);
    // A second confirm finds nothing to publish.
    const again = expectRedirect(await postBatch(batchId, { intent: "publish", expected: "2" }));
    expect((await flashOf(again.cookie)).toast).toMatchObject({ title: "Publishing failed", description: expect.stringContaining("no longer exists") });
    expect(allDocuments()).toHaveLength(2);
  });

  it("publishes nothing when the batch changed since the preview (409), and keeps it", async () => {
    const batchId = await stage(mixedBatch());
    getDb().update(lpUsers).set({ status: "rejected" }).where(eq(lpUsers.id, john.id)).run();
    const redirect = expectRedirect(await postBatch(batchId, { intent: "publish", expected: "2" }));
    expect(redirect.location).toBe(`/admin/documents/bulk/${batchId}`);
    expect((await flashOf(redirect.cookie)).toast).toMatchObject({ title: "Publishing failed", description: expect.stringContaining("changed") });
    expect(allDocuments()).toEqual([]);
    expect((await readBatch(batchId)).publishable).toBe(1);
  });

  it("a failed transaction puts the files back into the batch and leaves nothing in storage", async () => {
    const batchId = await stage(mixedBatch());
    const before = stagingFiles();
    // An uploader the database does not know: the documents' foreign key refuses the rows.
    const ghost = { ...admin, id: "00000000-0000-0000-0000-000000000000" };
    await expect(publishBatch(ghost, batchId, 2)).rejects.toThrow();
    expect(allDocuments()).toEqual([]);
    expect(getDb().select().from(documentRecipients).all()).toEqual([]);
    expect(filesUnder(path.join(storageRoot(), "documents"))).toEqual([]);
    expect(stagingFiles()).toEqual(before);
    // The batch can still be published.
    expect((await publishBatch(admin, batchId, 2)).count).toBe(2);
    expect(stagingFiles()).toEqual([]);
  });

  it("a batch with nothing to publish offers only Cancel, and refuses a publish", async () => {
    const batchId = await stage([pdf("nobody.pdf")]);
    expect(((await loadBatch(batchId)) as unknown as Preview).preview.publishable).toBe(0);
    const redirect = expectRedirect(await postBatch(batchId, { intent: "publish", expected: "1" }));
    expect((await flashOf(redirect.cookie)).toast).toMatchObject({ description: "No file of this batch can be published." });
    expect(allDocuments()).toEqual([]);
  });
});

describe("cancelling and expiry", () => {
  it("cancel removes the batch folder and publishes nothing", async () => {
    const batchId = await stage(mixedBatch());
    const redirect = expectRedirect(await postBatch(batchId, { intent: "cancel" }));
    expect(redirect.status).toBe(303);
    expect(redirect.location).toBe("/admin/documents/bulk");
    expect((await flashOf(redirect.cookie)).toast).toMatchObject({ title: "Upload cancelled" });
    expect(fs.existsSync(path.join(stagingRoot(), batchId))).toBe(false);
    expect(stagingFiles()).toEqual([]);
    expect(allDocuments()).toEqual([]);
    expect((await loadMissingBatch(batchId)).status).toBe(404);
  });

  it("unknown, malformed and expired batch ids answer 404", async () => {
    for (const batchId of ["0".repeat(32), "../../etc", "not-a-batch", `${"a".repeat(32)}.publishing`]) {
      const { data, status } = await loadMissingBatch(batchId);
      expect(status, batchId).toBe(404);
      expect(data).toMatchObject({ title: "Batch not found", message: expect.stringContaining("no longer exists"), back: { to: "/admin/documents/bulk" } });
    }
    const batchId = await stage([pdf("LRV-0042.pdf")]);
    advanceClockForTests(24 * 60 * 60 * 1000 + 1000);
    // (The session started before the jump has timed out: a fresh one.)
    adminCookie = await sessionCookieFor(admin);
    expect((await loadMissingBatch(batchId)).status).toBe(404);
    expect(fs.existsSync(path.join(stagingRoot(), batchId))).toBe(false);
  });

  it("batches older than 24 hours are removed (at start, or when the bulk page loads); newer ones stay", async () => {
    const old = await stage([pdf("LRV-0042.pdf")]);
    advanceClockForTests(23 * 60 * 60 * 1000);
    adminCookie = await sessionCookieFor(admin);
    const recent = await stage([pdf("LRV-0042.pdf")]);
    advanceClockForTests(2 * 60 * 60 * 1000);
    // A folder without a manifest (an upload in progress, or cut off by a stop), changed just now: it goes at start only.
    const unfinished = path.join(stagingRoot(), "f".repeat(32));
    fs.mkdirSync(unfinished);
    fs.utimesSync(unfinished, now(), now());
    adminCookie = await sessionCookieFor(admin);
    await callRouteWith(uploadLoader as never, requestWithCookie("/admin/documents/bulk", adminCookie));
    expect(fs.existsSync(path.join(stagingRoot(), old))).toBe(false);
    expect(fs.existsSync(path.join(stagingRoot(), recent))).toBe(true);
    expect(fs.existsSync(path.join(stagingRoot(), "f".repeat(32)))).toBe(true);
    expect(await removeStaleBulkBatches({ atStart: true })).toBe(1);
    expect(fs.readdirSync(stagingRoot())).toEqual([recent]);
  });
});

describe("batch limits", () => {
  it("the server's body ceiling for the bulk path is above the 1 GiB batch", () => {
    expect(bodyLimitFor("/admin/documents/bulk", "multipart/form-data; boundary=x")).toBe(BULK_UPLOAD_BODY_LIMIT);
    expect(BULK_UPLOAD_BODY_LIMIT).toBeGreaterThan(1024 * MB);
    expect(bodyLimitFor("/admin/documents/bulk", "application/x-www-form-urlencoded")).toBe(64 * 1024);
  });

  it("a 501st file answers 413 and leaves nothing on disk", async () => {
    const tiny = samplePdf("tiny");
    const files = Array.from({ length: 501 }, (_, i) => pdf(`LRV-0042-${i}.pdf`, tiny));
    const { data, status } = expectData<{ failure: { message: string } }>(await postBulk(files));
    expect(status).toBe(413);
    expect(data.failure.message).toBe("A batch can have at most 500 files");
    expect(stagingFiles()).toEqual([]);
    expect(fs.readdirSync(stagingRoot())).toEqual([]);
  });

  it("a file over 50 MB answers 413 naming it, and leaves nothing on disk", { timeout: 60_000 }, async () => {
    const files = [pdf("LRV-0042.pdf"), pdf("huge-LRV-004.pdf", samplePdf("huge", 50 * MB + 1))];
    const { data, status } = expectData<{ failure: { message: string } }>(await postBulk(files));
    expect(status).toBe(413);
    expect(data.failure.message).toBe("huge-LRV-004.pdf is larger than 50 MB");
    expect(stagingFiles()).toEqual([]);
    expect(fs.readdirSync(stagingRoot())).toEqual([]);
  });

  it("a batch over the total limit is refused while it streams (413), and by its declared length before", async () => {
    const dir = path.join(stagingRoot(), "total-test");
    const options = {
      dir,
      fileField: "files",
      fieldNames: ["title"],
      maxFileBytes: 50 * MB,
      maxFiles: 500,
      maxTotalBytes: 3 * MB,
      overheadBytes: MB,
      messages: { fileTooLarge: (name: string) => `${name} too large`, tooManyFiles: "too many", tooLarge: "batch too large" },
    };
    const files = [1, 2, 3, 4].map((i) => pdf(`part-${i}.pdf`, samplePdf(`part ${i}`, MB)));
    await expect(receiveFiles(bulkRequest(files, {}), options)).rejects.toMatchObject({ status: 413, message: "batch too large" });
    expect(fs.existsSync(dir)).toBe(false);
    const declared = new Request(`${ORIGIN}/admin/documents/bulk`, {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(5 * MB) },
      body: "--x--",
    });
    await expect(receiveFiles(declared, options)).rejects.toMatchObject({ status: 413, message: "batch too large" });
    expect(fs.existsSync(dir)).toBe(false);
    // Three files of 1 MB fit.
    const ok = await receiveFiles(bulkRequest(files.slice(0, 2), {}), options);
    expect(ok.files.map((f) => f.size)).toEqual([MB, MB]);
  });

  // The limits are the subject here: no watermark, so no stampability check (qpdf runs three times a
  // file, the same check on 200 alike files); "staging a batch" tests that check.
  it("accepts a batch of 200 files of 1 MB each", { timeout: 300_000 }, async () => {
    const fileAt = (i: number) => pdf(`Q3-2026-${i}-${i % 2 === 0 ? "LRV-0042" : "john.roe@example.com"}.pdf`, samplePdf(`statement ${i}`, MB));
    const { watermark: _stamped, ...unstamped } = DEFAULT_FIELDS;
    const redirect = expectRedirect(await callRouteWith(uploadAction as never, streamedBulkRequest(200, fileAt, unstamped)));
    const batchId = BATCH_PATH.exec(redirect.location)?.[1] ?? "";
    expect(batchId, redirect.location).not.toBe("");
    const manifest = manifestOf(batchId);
    expect(manifest.files).toHaveLength(200);
    expect(manifest.files.every((f) => f.problem === null && f.size === MB)).toBe(true);
    expect(stagingFiles()).toHaveLength(201);
    const { count } = await publishBatch(admin, batchId, 200);
    expect(count).toBe(200);
    expect(allDocuments()).toHaveLength(200);
    expect(getDb().select().from(documentRecipients).where(eq(documentRecipients.userId, jane.id)).all()).toHaveLength(100);
    expect(stagingFiles()).toEqual([]);
  });
});

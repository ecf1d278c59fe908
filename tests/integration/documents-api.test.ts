import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { documents, lpUsers } from "../../db/schema";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { storageRoot } from "~/modules/storage/storage.server";
import { action as deleteAction, loader as documentLoader } from "~/routes/api/document";
import { loader as fileLoader } from "~/routes/api/document-file";
import { action as uploadAction, loader as listLoader } from "~/routes/api/documents";
import {
  absoluteStored,
  allDocuments,
  bodyBytes,
  clearDocuments,
  documentRow,
  insertDocument,
  storedFiles,
  uploadRequest,
} from "../helpers/documents";
import { MIME, samplePdf } from "../helpers/sample-files";
import { apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

type LpDocumentJson = {
  id: string;
  title: string;
  description: string | null;
  category: string;
  fileName: string;
  fileSize: string;
  createdAt: string;
};

const REPORT = samplePdf("Quarterly report", 4321);
const LETTER = samplePdf("Annual letter", 2048);

let admin: LpUser;
const cookies: Record<"admin" | "approved" | "pending" | "rejected", string> = { admin: "", approved: "", pending: "", rejected: "" };

beforeAll(async () => {
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  cookies.admin = await sessionCookieFor(admin);
  cookies.approved = await sessionCookieFor(await insertUser({ status: "approved" }));
  cookies.pending = await sessionCookieFor(await insertUser({ status: "pending" }));
  cookies.rejected = await sessionCookieFor(await insertUser({ status: "rejected" }));
});
beforeEach(() => {
  clearDocuments();
});

/** `cookie: null` sends no cookie. */
const list = (cookie: string | null) => callRouteWith(listLoader, apiRequest("GET", "/api/documents", { cookie: cookie ?? undefined }));

const remove = (id: string, cookie: string | null = cookies.admin, method = "DELETE") =>
  callRouteWith(deleteAction, apiRequest(method, `/api/documents/${encodeURIComponent(id)}`, { cookie: cookie ?? undefined }), {
    params: { id },
  });

const file = (id: string, kind: "view" | "download", cookie: string | null) =>
  callRouteWith(fileLoader, apiRequest("GET", `/api/documents/${id}/${kind}`, { cookie: cookie ?? undefined }), { params: { id } });

describe("GET /api/documents", () => {
  it("answers [] when nothing is published", async () => {
    const response = await list(cookies.approved);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  it("lists every document newest first, in the LP read shape (fileSize a string of bytes, nothing internal)", async () => {
    const older = insertDocument(REPORT, {
      title: "Q3 2026 Report",
      description: "Quarterly numbers",
      category: "reports",
      fileName: "q3-2026.pdf",
      createdAt: new Date("2026-10-01T09:00:00.000Z"),
    });
    const newer = insertDocument(LETTER, {
      title: "Annual letter",
      category: "newsletters",
      fileName: "annual-letter.pdf",
      createdAt: new Date("2026-12-15T09:00:00.000Z"),
    });
    const response = await list(cookies.approved);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      {
        id: newer.id,
        title: "Annual letter",
        description: null,
        category: "newsletters",
        fileName: "annual-letter.pdf",
        fileSize: "2048",
        createdAt: "2026-12-15T09:00:00.000Z",
        audience: "all",
        watermark: false,
      },
      {
        id: older.id,
        title: "Q3 2026 Report",
        description: "Quarterly numbers",
        category: "reports",
        fileName: "q3-2026.pdf",
        fileSize: "4321",
        createdAt: "2026-10-01T09:00:00.000Z",
        audience: "all",
        watermark: false,
      },
    ]);
  });

  it("answers the read shape's keys in SPEC.md §3's order, then audience and watermark (and recipientIds for admins)", async () => {
    insertDocument(REPORT);
    const keysFor = async (cookie: string) => Object.keys((JSON.parse(await (await list(cookie)).text()) as LpDocumentJson[])[0]!);
    const spec = ["id", "title", "description", "category", "fileName", "fileSize", "createdAt"];
    expect(await keysFor(cookies.approved)).toEqual([...spec, "audience", "watermark"]);
    expect(await keysFor(cookies.admin)).toEqual([...spec, "audience", "watermark", "recipientIds", "recipientEntityIds"]);
  });

  it("shows a freshly uploaded document to investors at once", async () => {
    const upload = await callRouteWith(
      uploadAction,
      uploadRequest("/api/documents", {
        fields: { title: "Fresh", category: "research" },
        file: { bytes: REPORT, name: "fresh.pdf", type: MIME.pdf },
        cookie: cookies.admin,
      }),
    );
    expect(upload.status).toBe(201);
    const { recipientIds, recipientEntityIds, ...created } = (await upload.json()) as LpDocumentJson & { recipientIds: string[]; recipientEntityIds: string[] };
    expect(recipientIds).toEqual([]);
    expect(recipientEntityIds).toEqual([]);
    const listed = (await (await list(cookies.approved)).json()) as LpDocumentJson[];
    expect(listed).toEqual([created]);
  });
});

describe("DELETE /api/documents/{id}", () => {
  it("as admin: removes the row and the file, and the document is gone everywhere", async () => {
    const doc = insertDocument(REPORT);
    const kept = insertDocument(LETTER, { title: "Kept" });
    const response = await remove(doc.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, id: doc.id });

    expect(documentRow(doc.id)).toBeUndefined();
    expect(fs.existsSync(absoluteStored(doc.filePath))).toBe(false);
    // The other document is untouched.
    expect(storedFiles()).toEqual([kept.filePath]);
    expect(fs.readFileSync(absoluteStored(kept.filePath)).equals(LETTER)).toBe(true);

    const listed = (await (await list(cookies.approved)).json()) as LpDocumentJson[];
    expect(listed.map((d) => d.id)).toEqual([kept.id]);
    expect((await file(doc.id, "view", cookies.approved)).status).toBe(404);
  });

  it("a second delete of the same document → 404 'Document not found'", async () => {
    const doc = insertDocument(REPORT);
    expect((await remove(doc.id)).status).toBe(200);
    const again = await remove(doc.id);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ error: "Document not found" });
  });

  it("deleting a document whose file is already gone still succeeds", async () => {
    const doc = insertDocument(REPORT);
    fs.rmSync(absoluteStored(doc.filePath));
    const response = await remove(doc.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, id: doc.id });
    expect(allDocuments()).toEqual([]);
  });

  it.each([
    ["an absolute path", (outside: string) => outside],
    ["a relative path out of storage", (outside: string) => path.relative(storageRoot(), outside)],
  ])("deleting a row whose filePath was tampered to %s removes the row but never a file outside storage", async (_label, tamper) => {
    const outside = path.join(path.dirname(storageRoot()), "keep-me.txt");
    fs.writeFileSync(outside, "must survive");
    try {
      const doc = insertDocument(REPORT);
      getDb().update(documents).set({ filePath: tamper(outside) }).where(eq(documents.id, doc.id)).run();
      expect((await remove(doc.id)).status).toBe(200);
      expect(documentRow(doc.id)).toBeUndefined();
      expect(fs.readFileSync(outside, "utf8")).toBe("must survive");
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });

  it.each([
    ["an unknown uuid", crypto.randomUUID()],
    ["../x", "../x"],
    ["a 1000-character id", "a".repeat(1000)],
  ])("%s → 404 and nothing is deleted", async (_label, id) => {
    const doc = insertDocument(REPORT);
    const response = await remove(id);
    expect(response.status).toBe(404);
    expect(documentRow(doc.id)).toBeDefined();
    expect(storedFiles()).toEqual([doc.filePath]);
  });

  it.each([
    ["an approved investor", "approved", 403, "Admin access required"],
    ["a pending user", "pending", 403, "Admin access required"],
    ["a visitor", null, 401, "Authentication required"],
  ] as const)("%s cannot delete (%i) and the document stays", async (_who, role, status, error) => {
    const doc = insertDocument(REPORT);
    const response = await remove(doc.id, role ? cookies[role] : null);
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error });
    expect(documentRow(doc.id)).toBeDefined();
    expect(fs.readFileSync(absoluteStored(doc.filePath)).equals(REPORT)).toBe(true);
  });

  it("GET /api/documents/{id} as admin → 405 (Allow: DELETE, PATCH), and the document stays", async () => {
    const doc = insertDocument(REPORT);
    const response = await callRouteWith(documentLoader, apiRequest("GET", `/api/documents/${doc.id}`, { cookie: cookies.admin }), {
      params: { id: doc.id },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("DELETE, PATCH");
    expect(documentRow(doc.id)).toBeDefined();
  });

  it("GET /api/documents/{id} tells non-admins only that they may not (401/403)", async () => {
    const doc = insertDocument(REPORT);
    const get = (cookie?: string) =>
      callRouteWith(documentLoader, apiRequest("GET", `/api/documents/${doc.id}`, { cookie }), { params: { id: doc.id } });
    expect((await get()).status).toBe(401);
    expect((await get(cookies.approved)).status).toBe(403);
  });

  it.each(["POST", "PUT"])("%s /api/documents/{id} as admin → 405, and the document stays", async (method) => {
    const doc = insertDocument(REPORT);
    const response = await remove(doc.id, cookies.admin, method);
    expect(response.status).toBe(405);
    expect(documentRow(doc.id)).toBeDefined();
  });

  it("PUT /api/documents as admin → 405", async () => {
    const response = await callRouteWith(uploadAction, apiRequest("PUT", "/api/documents", { cookie: cookies.admin }));
    expect(response.status).toBe(405);
    expect(allDocuments()).toEqual([]);
  });
});

describe("who may read documents", () => {
  const REFUSED = [
    ["a visitor", null, 401, "Authentication required"],
    ["a pending investor", "pending", 403, "Your account is not approved"],
    ["a rejected investor", "rejected", 403, "Your account is not approved"],
  ] as const;

  it.each(REFUSED)("GET /api/documents: %s → %i", async (_who, role, status, error) => {
    insertDocument(REPORT, { title: "Secret title" });
    const response = await list(role ? cookies[role] : null);
    expect(response.status).toBe(status);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error });
    expect(text).not.toContain("Secret title");
  });

  it.each(REFUSED)(
    "view and download: %s → %i, the same answer for an existing and a nonexistent id",
    async (_who, role, status, error) => {
      const doc = insertDocument(REPORT);
      const cookie = role ? cookies[role] : null;
      for (const kind of ["view", "download"] as const) {
        const existing = await file(doc.id, kind, cookie);
        const missing = await file(crypto.randomUUID(), kind, cookie);
        expect(existing.status).toBe(status);
        expect(missing.status).toBe(status);
        const existingBody = await existing.text();
        expect(JSON.parse(existingBody)).toEqual({ error });
        expect(await missing.text()).toBe(existingBody);
        expect(existing.headers.get("Content-Disposition")).toBeNull();
      }
    },
  );

  it.each([
    ["an approved investor", "approved"],
    ["an admin", "admin"],
  ] as const)("%s may list, view and download (200)", async (_who, role) => {
    const doc = insertDocument(REPORT);
    const listed = await list(cookies[role]);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as LpDocumentJson[]).map((d) => d.id)).toEqual([doc.id]);
    for (const kind of ["view", "download"] as const) {
      const response = await file(doc.id, kind, cookies[role]);
      expect(response.status).toBe(200);
      expect((await bodyBytes(response)).equals(REPORT)).toBe(true);
    }
    expect((await file(crypto.randomUUID(), "view", cookies[role])).status).toBe(404);
  });

  it("an investor who is rejected after signing in loses access at once", async () => {
    const doc = insertDocument(REPORT);
    const investor = await insertUser({ status: "approved" });
    const cookie = await sessionCookieFor(investor);
    expect((await file(doc.id, "download", cookie)).status).toBe(200);
    getDb().update(lpUsers).set({ status: "rejected" }).where(eq(lpUsers.id, investor.id)).run();
    expect((await file(doc.id, "download", cookie)).status).toBe(403);
    expect((await list(cookie)).status).toBe(403);
  });
});

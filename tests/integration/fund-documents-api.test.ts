import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { storageRoot } from "~/modules/storage/storage.server";
import { action as uploadAction, loader as uploadLoader } from "~/routes/api/fund-documents/index";
import { loader as fundIPageLoader } from "~/routes/funds/fund-i-documents";
import { loader as fundIIPageLoader } from "~/routes/funds/fund-ii-documents";
import {
  absoluteStored,
  allAccessLog,
  bodyBytes,
  clearDocuments,
  documentRow,
  filesUnder,
  insertDocument,
  storedFiles,
  uploadRequest,
  type UploadFile,
} from "../helpers/documents";
import {
  allFundDocuments,
  clearFundAccess,
  deleteFundDoc,
  fundDocumentRow,
  fundFile,
  insertFundDoc,
  insertFundHolder,
  joinCookies,
  listFundDocs,
  type FundHolder,
} from "../helpers/funds";
import { MIME, samplePdf } from "../helpers/sample-files";
import { TEST_CLIENT_ADDRESS } from "../helpers/test-env";
import { ORIGIN, apiRequest, callRouteWith, clearAccountTables, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * The fund documents API (SPEC.md §3, §7; DESIGN.md §4–5;
 * docs/decisions/012-fund-access.md): admin uploads and deletes, lists and
 * files for holders of each fund's access and for admins.
 */

type FundDocumentJson = {
  id: string;
  title: string;
  description: string | null;
  category: string;
  fileName: string;
  fileSize: string;
  createdAt: string;
  fundId: string;
};
type ErrorJson = { error: string; fields?: Record<string, string[]> };

const FILE_TYPE_ERROR = "File type must be PDF, Word, Excel, or PowerPoint";
const CATEGORY_ERROR = "Choose one of the listed categories";
const STORED_NAME = /^fund-documents\/[0-9a-f]{32}$/;
const FUND_CATEGORIES = ["fund_documents", "executive_summary", "pitchdeck", "newsletters", "research"];

const DECK = samplePdf("Fund II deck", 1_310_720); // exactly 1.25 MB
const LETTER = samplePdf("Fund I letter", 4321);
const HTML_AS_PDF: UploadFile = {
  bytes: Buffer.from("<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>\n"),
  name: "report.pdf",
  type: MIME.pdf,
};

let admin: LpUser;
const cookies = { admin: "", investor: "", pending: "" };
let holderI: FundHolder;
let holderII: FundHolder;

beforeAll(async () => {
  clearAccountTables();
  clearFundAccess();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  cookies.admin = await sessionCookieFor(admin);
  cookies.investor = await sessionCookieFor(await insertUser({ status: "approved", name: "Ivy Investor" }));
  cookies.pending = await sessionCookieFor(await insertUser({ status: "pending", name: "Pat Pending" }));
  holderI = await insertFundHolder("fund-i");
  holderII = await insertFundHolder("fund-ii");
});
beforeEach(() => {
  clearDocuments();
});

const pdf = (bytes: Uint8Array = LETTER, name = "letter.pdf"): UploadFile => ({ bytes, name, type: MIME.pdf });

/** POST /api/fund-documents; `file: null` sends none, `cookie: null` no cookie (by default the admin's). */
function upload(fields: Record<string, string>, file: UploadFile | null = pdf(), cookie: string | null = cookies.admin) {
  return callRouteWith(
    uploadAction,
    uploadRequest("/api/fund-documents", { fields, file: file ?? undefined, cookie: cookie ?? undefined }),
  );
}

/** No fund document row, and not a single file anywhere under STORAGE_DIR. */
function expectNothingStored() {
  expect(allFundDocuments()).toEqual([]);
  expect(storedFiles()).toEqual([]);
  expect(filesUnder(path.join(storageRoot(), "incoming"))).toEqual([]);
}

async function expectRefused(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as ErrorJson;
  expect(body.error).toBe(error);
  expectNothingStored();
  return body;
}

async function listed(response: Response): Promise<FundDocumentJson[]> {
  expect(response.status).toBe(200);
  return (await response.json()) as FundDocumentJson[];
}

describe("POST /api/fund-documents (admin)", () => {
  it.each([
    ["fund-i", "fund-i"],
    ["fund-ii", "fund-ii"],
    ["no fundId", undefined],
    ["an empty fundId", ""],
  ])("%s → 201, stored for its fund (default fund-ii), fileSize in bytes", async (_label, fundId) => {
    const fields: Record<string, string> = {
      title: "Capital call notice",
      description: "Second close",
      category: "fund_documents",
    };
    if (fundId !== undefined) fields.fundId = fundId;
    const response = await upload(fields, pdf(LETTER, "capital-call.pdf"));
    expect(response.status).toBe(201);
    const body = (await response.json()) as FundDocumentJson;

    const rows = allFundDocuments();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    const expectedFund = fundId === "fund-i" ? "fund-i" : "fund-ii";
    expect(body).toEqual({
      id: row.id,
      title: "Capital call notice",
      description: "Second close",
      category: "fund_documents",
      fileName: "capital-call.pdf",
      fileSize: "4321",
      createdAt: row.createdAt.toISOString(),
      fundId: expectedFund,
    });
    expect(row).toMatchObject({ fundId: expectedFund, uploadedBy: admin.id, mimeType: MIME.pdf, fileSize: 4321 });
    expect(row.filePath).toMatch(STORED_NAME);
    expect(storedFiles()).toEqual([row.filePath]);
    expect(fs.readFileSync(absoluteStored(row.filePath)).equals(LETTER)).toBe(true);

    // Visible at once to the holders of that fund, and only to them.
    const holder = expectedFund === "fund-i" ? holderI : holderII;
    const other = expectedFund === "fund-i" ? holderII : holderI;
    expect((await listed(await listFundDocs(expectedFund, holder.cookie))).map((d) => d.id)).toEqual([row.id]);
    const otherFund = expectedFund === "fund-i" ? "fund-ii" : "fund-i";
    expect(await listed(await listFundDocs(otherFund, other.cookie))).toEqual([]);
  });

  it.each(FUND_CATEGORIES)("accepts the fund category %s", async (category) => {
    const response = await upload({ title: "Doc", category, fundId: "fund-i" });
    expect(response.status).toBe(201);
    expect(((await response.json()) as FundDocumentJson).category).toBe(category);
  });

  it("without a category stores fund_documents", async () => {
    const response = await upload({ title: "Doc" });
    expect(response.status).toBe(201);
    expect(allFundDocuments()[0]?.category).toBe("fund_documents");
  });

  it.each(["reports", "portfolio_company_news", "Reports", "secret"])(
    "refuses the category %s (not one of the five fund categories): 400, nothing stored",
    async (category) => {
      const body = await expectRefused(await upload({ title: "Doc", category, fundId: "fund-ii" }), 400, CATEGORY_ERROR);
      expect(body.fields).toEqual({ category: [CATEGORY_ERROR] });
    },
  );

  it.each(["fund-iii", "FUND-I", "fund_i"])("refuses fundId %s: 400, nothing stored", async (fundId) => {
    const body = await expectRefused(await upload({ title: "Doc", fundId }), 400, "Fund must be fund-i or fund-ii");
    expect(body.fields).toEqual({ fundId: ["Fund must be fund-i or fund-ii"] });
  });

  it("refuses an HTML page named .pdf and declared application/pdf: 400, nothing left behind", async () => {
    const body = await expectRefused(await upload({ title: "Doc", fundId: "fund-ii" }, HTML_AS_PDF), 400, FILE_TYPE_ERROR);
    expect(body.fields).toEqual({ file: [FILE_TYPE_ERROR] });
  });

  it("refuses a form without a file: 400 'File is required'", async () => {
    await expectRefused(await upload({ title: "Doc" }, null), 400, "File is required");
  });

  it("refuses a missing title: 400 'Title is required'", async () => {
    await expectRefused(await upload({ fundId: "fund-i" }), 400, "Title is required");
  });

  it.each([
    ["an approved investor", 403, "Admin access required", () => cookies.investor],
    ["a pending user", 403, "Admin access required", () => cookies.pending],
    ["a Fund II holder", 401, "Authentication required", () => holderII.cookie],
    ["a visitor", 401, "Authentication required", (): string | null => null],
  ] as const)("%s cannot upload (%i) and nothing is stored", async (_who, status, error, cookie) => {
    await expectRefused(await upload({ title: "Doc", fundId: "fund-ii" }, pdf(), cookie()), status, error);
  });

  it("GET /api/fund-documents → 405 (Allow: POST)", () => {
    const response = uploadLoader();
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
  });

  it("PUT /api/fund-documents as admin → 405", async () => {
    const response = await callRouteWith(uploadAction, apiRequest("PUT", "/api/fund-documents", { cookie: cookies.admin }));
    expect(response.status).toBe(405);
    expectNothingStored();
  });
});

describe("GET /api/fund-documents/{fund}", () => {
  function seed() {
    const olderII = insertFundDoc("fund-ii", LETTER, {
      title: "Fund II letter",
      description: "Q1",
      category: "newsletters",
      fileName: "fund-ii-letter.pdf",
      createdAt: new Date("2026-01-10T09:00:00.000Z"),
    });
    const newerII = insertFundDoc("fund-ii", DECK, {
      title: "Fund II deck",
      category: "pitchdeck",
      fileName: "fund-ii-deck.pdf",
      createdAt: new Date("2026-03-01T09:00:00.000Z"),
    });
    const docI = insertFundDoc("fund-i", LETTER, {
      title: "Fund I annual report",
      category: "research",
      fileName: "fund-i-annual.pdf",
      createdAt: new Date("2025-12-31T09:00:00.000Z"),
    });
    return { olderII, newerII, docI };
  }

  it.each(["fund-i", "fund-ii"])("a visitor → 401 'Access token required' for %s, without any title", async (fundId) => {
    seed();
    const response = await listFundDocs(fundId, null);
    expect(response.status).toBe(401);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: "Access token required" });
    expect(text).not.toContain("Fund");
  });

  it("a Fund II holder: fund-ii newest first in the read shape with fileSize as text; fund-i → 401", async () => {
    const { olderII, newerII } = seed();
    expect(await listed(await listFundDocs("fund-ii", holderII.cookie))).toEqual([
      {
        id: newerII.id,
        title: "Fund II deck",
        description: null,
        category: "pitchdeck",
        fileName: "fund-ii-deck.pdf",
        fileSize: "1.25 MB",
        createdAt: "2026-03-01T09:00:00.000Z",
        fundId: "fund-ii",
      },
      {
        id: olderII.id,
        title: "Fund II letter",
        description: "Q1",
        category: "newsletters",
        fileName: "fund-ii-letter.pdf",
        fileSize: "0.00 MB",
        createdAt: "2026-01-10T09:00:00.000Z",
        fundId: "fund-ii",
      },
    ]);
    const other = await listFundDocs("fund-i", holderII.cookie);
    expect(other.status).toBe(401);
    expect(await other.text()).not.toContain("Fund I annual report");
  });

  it("a Fund I holder: fund-i only (text sizes); fund-ii → 401", async () => {
    const { docI } = seed();
    const body = await listed(await listFundDocs("fund-i", holderI.cookie));
    expect(body.map((d) => [d.id, d.fileSize, d.fundId])).toEqual([[docI.id, "0.00 MB", "fund-i"]]);
    expect((await listFundDocs("fund-ii", holderI.cookie)).status).toBe(401);
  });

  it("someone holding both cookies sees each fund's own list", async () => {
    const { docI, newerII, olderII } = seed();
    const both = joinCookies(holderI.cookie, holderII.cookie);
    expect((await listed(await listFundDocs("fund-i", both))).map((d) => d.id)).toEqual([docI.id]);
    expect((await listed(await listFundDocs("fund-ii", both))).map((d) => d.id)).toEqual([newerII.id, olderII.id]);
  });

  it("an admin: both funds, fileSize as a byte string", async () => {
    const { docI, newerII, olderII } = seed();
    const ii = await listed(await listFundDocs("fund-ii", cookies.admin));
    expect(ii.map((d) => [d.id, d.fileSize])).toEqual([
      [newerII.id, "1310720"],
      [olderII.id, "4321"],
    ]);
    const i = await listed(await listFundDocs("fund-i", cookies.admin));
    expect(i.map((d) => [d.id, d.fileSize, d.fundId])).toEqual([[docI.id, "4321", "fund-i"]]);
  });

  it("an admin who also holds a fund cookie still gets byte sizes", async () => {
    seed();
    const body = await listed(await listFundDocs("fund-ii", joinCookies(cookies.admin, holderII.cookie)));
    for (const doc of body) expect(doc.fileSize).toMatch(/^\d+$/);
  });

  it.each([
    ["an approved LP investor (not admin)", () => cookies.investor],
    ["a pending user", () => cookies.pending],
  ] as const)("%s → 401 for both funds", async (_who, cookie) => {
    seed();
    for (const fundId of ["fund-i", "fund-ii"]) {
      const response = await listFundDocs(fundId, cookie());
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Access token required" });
    }
  });

  it("an empty fund answers []", async () => {
    expect(await listed(await listFundDocs("fund-i", holderI.cookie))).toEqual([]);
  });

  it("answers the read shape's keys in SPEC.md §3's order, fundId last", async () => {
    seed();
    const text = await (await listFundDocs("fund-i", holderI.cookie)).text();
    expect(Object.keys((JSON.parse(text) as FundDocumentJson[])[0]!)).toEqual([
      "id",
      "title",
      "description",
      "category",
      "fileName",
      "fileSize",
      "createdAt",
      "fundId",
    ]);
  });
});

describe("the fund documents pages", () => {
  const ORIGINAL_TZ = process.env.TZ;
  afterEach(() => {
    if (ORIGINAL_TZ === undefined) delete process.env.TZ;
    else process.env.TZ = ORIGINAL_TZ;
  });

  function pageRequest(path: string, cookie: string) {
    return new Request(ORIGIN + path, { headers: { Cookie: cookie } });
  }

  it("list their fund's documents with the size as text and the date in UTC, whatever the server's zone", async () => {
    // 23:30 UTC on Jan 5 is already Jan 6 in Tokyo.
    const docI = insertFundDoc("fund-i", DECK, { createdAt: new Date("2025-01-05T23:30:00.000Z") });
    const docII = insertFundDoc("fund-ii", LETTER, { createdAt: new Date("2025-01-05T23:30:00.000Z") });
    insertDocument(LETTER);
    process.env.TZ = "Asia/Tokyo";

    const context = { clientAddress: TEST_CLIENT_ADDRESS };
    const fundI = await fundIPageLoader({ request: pageRequest("/fund-i/documents", holderI.cookie), params: {}, context } as never);
    expect(fundI.documents).toEqual([
      expect.objectContaining({ id: docI.id, fundId: "fund-i", fileSize: "1.25 MB", createdAt: "2025-01-05T23:30:00.000Z", createdOn: "Jan 5, 2025" }),
    ]);

    const fundII = await fundIIPageLoader({ request: pageRequest("/fund-ii/documents", holderII.cookie), params: {}, context } as never);
    expect("data" in fundII ? fundII.data : fundII).toEqual({
      access: "granted",
      documents: [expect.objectContaining({ id: docII.id, fundId: "fund-ii", fileSize: "0.00 MB", createdOn: "Jan 5, 2025" })],
    });
  });
});

describe("GET /api/fund-documents/view/{id} and /download/{id}", () => {
  it.each([
    ["view", "inline"],
    ["download", "attachment"],
  ] as const)(
    "%s: the holder of the document's fund gets the identical bytes, logged as that access request",
    async (kind, disposition) => {
      const doc = insertFundDoc("fund-ii", DECK, { fileName: "fund-ii-deck.pdf" });
      const response = await fundFile(kind, doc.id, holderII.cookie);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe(MIME.pdf);
      expect(response.headers.get("Content-Disposition")).toBe(`${disposition}; filename="fund-ii-deck.pdf"`);
      expect(response.headers.get("Cache-Control")).toBe("private, no-store");
      expect((await bodyBytes(response)).equals(DECK)).toBe(true);

      const log = allAccessLog();
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({
        action: kind,
        documentKind: "fund",
        documentId: doc.id,
        actorKind: "fund_access_user",
        actorId: holderII.row.id,
        ip: TEST_CLIENT_ADDRESS,
      });
    },
  );

  it("the Fund I holder reads Fund I documents too", async () => {
    const doc = insertFundDoc("fund-i", LETTER);
    const response = await fundFile("download", doc.id, holderI.cookie);
    expect(response.status).toBe(200);
    expect((await bodyBytes(response)).equals(LETTER)).toBe(true);
    expect(allAccessLog()[0]).toMatchObject({ actorKind: "fund_access_user", actorId: holderI.row.id });
  });

  it.each([
    ["a Fund I holder asking for a Fund II document", "fund-ii", () => holderI.cookie],
    ["a Fund II holder asking for a Fund I document", "fund-i", () => holderII.cookie],
  ] as const)("%s → 404, the same answer as an unknown id, and nothing logged", async (_label, fundId, cookie) => {
    const doc = insertFundDoc(fundId, LETTER);
    for (const kind of ["view", "download"] as const) {
      const other = await fundFile(kind, doc.id, cookie());
      const unknown = await fundFile(kind, crypto.randomUUID(), cookie());
      expect(other.status).toBe(404);
      expect(unknown.status).toBe(404);
      const text = await other.text();
      expect(JSON.parse(text)).toEqual({ error: "Document not found" });
      expect(await unknown.text()).toBe(text);
      expect(other.headers.get("Content-Disposition")).toBeNull();
    }
    expect(allAccessLog()).toEqual([]);
  });

  it.each(["view", "download"] as const)("%s: an admin reads either fund's document, logged as lp_user", async (kind) => {
    const docI = insertFundDoc("fund-i", LETTER);
    const docII = insertFundDoc("fund-ii", DECK);
    const i = await fundFile(kind, docI.id, cookies.admin);
    const ii = await fundFile(kind, docII.id, cookies.admin);
    expect(i.status).toBe(200);
    expect(ii.status).toBe(200);
    expect((await bodyBytes(i)).equals(LETTER)).toBe(true);
    expect((await bodyBytes(ii)).equals(DECK)).toBe(true);
    const log = allAccessLog();
    expect(log).toHaveLength(2);
    for (const entry of log)
      expect(entry).toMatchObject({ action: kind, documentKind: "fund", actorKind: "lp_user", actorId: admin.id });
  });

  it.each([
    ["a visitor", (): string | null => null],
    ["an approved LP investor", () => cookies.investor],
    ["a pending user", () => cookies.pending],
  ] as const)("%s → 401 for a real and an unknown id alike", async (_who, cookie) => {
    const doc = insertFundDoc("fund-ii", DECK);
    for (const kind of ["view", "download"] as const) {
      const real = await fundFile(kind, doc.id, cookie());
      const unknown = await fundFile(kind, crypto.randomUUID(), cookie());
      expect(real.status).toBe(401);
      expect(unknown.status).toBe(401);
      const text = await real.text();
      expect(JSON.parse(text)).toEqual({ error: "Access token required" });
      expect(await unknown.text()).toBe(text);
      expect(real.headers.get("Content-Disposition")).toBeNull();
    }
    expect(allAccessLog()).toEqual([]);
  });

  it("an LP document's id → 404 for the admin and both holders (401 for a visitor); nothing logged", async () => {
    const lpDoc = insertDocument(LETTER);
    for (const cookie of [cookies.admin, holderI.cookie, holderII.cookie, joinCookies(holderI.cookie, holderII.cookie)]) {
      for (const kind of ["view", "download"] as const) {
        const response = await fundFile(kind, lpDoc.id, cookie);
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({ error: "Document not found" });
      }
    }
    expect((await fundFile("view", lpDoc.id, null)).status).toBe(401);
    expect(allAccessLog()).toEqual([]);
  });

  it.each([
    ["a path", "../../etc/passwd"],
    ["not a uuid", "not-a-uuid"],
    ["1000 characters", "a".repeat(1000)],
  ])("an id that is %s → 404 for the admin", async (_label, id) => {
    insertFundDoc("fund-ii", DECK);
    expect((await fundFile("view", id, cookies.admin)).status).toBe(404);
  });
});

describe("DELETE /api/fund-documents/{id}", () => {
  it("as admin: 200 { success, id }; the row and the file are gone, and so is the document for its holders", async () => {
    const doc = insertFundDoc("fund-ii", DECK);
    const kept = insertFundDoc("fund-i", LETTER);
    const response = await deleteFundDoc(doc.id, cookies.admin);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, id: doc.id });

    expect(fundDocumentRow(doc.id)).toBeUndefined();
    expect(fs.existsSync(absoluteStored(doc.filePath))).toBe(false);
    expect(storedFiles()).toEqual([kept.filePath]);
    expect(await listed(await listFundDocs("fund-ii", holderII.cookie))).toEqual([]);
    expect((await fundFile("view", doc.id, holderII.cookie)).status).toBe(404);

    const again = await deleteFundDoc(doc.id, cookies.admin);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ error: "Document not found" });
  });

  it.each([
    ["a visitor", 401, "Authentication required", (): string | null => null],
    ["a Fund II holder", 401, "Authentication required", () => holderII.cookie],
    ["an approved investor", 403, "Admin access required", () => cookies.investor],
  ] as const)("%s cannot delete (%i); the row and the file stay", async (_who, status, error, cookie) => {
    const doc = insertFundDoc("fund-ii", DECK);
    const response = await deleteFundDoc(doc.id, cookie());
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error });
    expect(fundDocumentRow(doc.id)).toBeDefined();
    expect(fs.readFileSync(absoluteStored(doc.filePath)).equals(DECK)).toBe(true);
  });

  it("an LP document's id → 404, and the LP document stays", async () => {
    const lpDoc = insertDocument(LETTER);
    const response = await deleteFundDoc(lpDoc.id, cookies.admin);
    expect(response.status).toBe(404);
    expect(documentRow(lpDoc.id)).toBeDefined();
    expect(fs.existsSync(absoluteStored(lpDoc.filePath))).toBe(true);
  });

  it("GET /api/fund-documents/{uuid} as admin → 405 (Allow: DELETE), and the document stays", async () => {
    const doc = insertFundDoc("fund-ii", DECK);
    const response = await listFundDocs(doc.id, cookies.admin);
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("DELETE");
    expect(fundDocumentRow(doc.id)).toBeDefined();
  });

  it("GET /api/fund-documents/{uuid} tells non-admins only that they may not (401/403)", async () => {
    const doc = insertFundDoc("fund-ii", DECK);
    expect((await listFundDocs(doc.id, null)).status).toBe(401);
    expect((await listFundDocs(doc.id, holderII.cookie)).status).toBe(401);
    expect((await listFundDocs(doc.id, cookies.investor)).status).toBe(403);
  });

  it.each(["POST", "PUT", "PATCH"])("%s /api/fund-documents/{id} as admin → 405, and the document stays", async (method) => {
    const doc = insertFundDoc("fund-ii", DECK);
    const response = await deleteFundDoc(doc.id, cookies.admin, method);
    expect(response.status).toBe(405);
    expect(fundDocumentRow(doc.id)).toBeDefined();
  });
});

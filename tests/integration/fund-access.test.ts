import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { fundAccessUsers } from "../../db/schema";
import { hashToken } from "~/modules/auth/tokens.server";
import { findAccessByToken, revokeFundAccess } from "~/modules/fund-access/fund-access.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { flushMailer, setMailTransportForTests } from "~/modules/mail/mail.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { action as registerAction, loader as registerLoader } from "~/routes/api/fund-access/register";
import { allOutbox } from "../helpers/db";
import {
  accessRequestByEmail,
  allAccessRequests,
  clearFundAccess,
  deliverMail,
  fundFile,
  insertFundDoc,
  listAccessRequests,
  listFundDocs,
  registerFund,
  tokenFromMailText,
  tokenInCookie,
  validateToken,
} from "../helpers/funds";
import { jsonRequest } from "../helpers/http";
import { samplePdf } from "../helpers/sample-files";
import { startSmtpServer, type SmtpTestServer } from "../helpers/smtp";
import { callRouteWith, clearAccountTables, cookiePair, insertAdmin, insertUser, sessionCookieFor } from "../helpers/users";

/**
 * POST /api/fund-access/register and GET /api/fund-access/requests
 * (SPEC.md §5, §7; docs/decisions/012-fund-access.md). Fund II links are
 * read from the mail as a real SMTP server received it.
 */

type RequestJson = {
  id: string;
  name: string;
  email: string;
  fundId: string;
  accreditedConfirmation: boolean;
  createdAt: string;
};

const ACCREDITED_REQUIRED = "You must confirm that you are an accredited/qualified investor";
const FUND_II_SUBJECT = "Your Deeptech Fund II documents access link";
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let smtp: SmtpTestServer;
let admin: LpUser;
let adminCookie: string;
let investorCookie: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  adminCookie = await sessionCookieFor(admin);
  investorCookie = await sessionCookieFor(await insertUser({ status: "approved", name: "Ivy Investor" }));
});
afterAll(async () => {
  await flushMailer();
  setMailTransportForTests(null);
  await smtp.stop();
});
beforeEach(() => {
  clearFundAccess();
  smtp.clear();
  setMailTransportForTests(smtp.transport());
  resetRateLimitsForTests();
});
afterEach(async () => {
  await flushMailer();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

const fundI = (overrides: Record<string, unknown> = {}) => ({
  name: "Rosalind Franklin",
  email: "rosalind@franklin.example",
  fundId: "fund-i",
  company: "King's College",
  phone: "+44 20 7836 5454",
  ...overrides,
});

const fundII = (overrides: Record<string, unknown> = {}) => ({
  name: "Grace Hopper",
  email: "grace@hopper.example",
  fundId: "fund-ii",
  accreditedConfirmation: true,
  ...overrides,
});

/** The links delivered to an address, oldest first, as tokens. */
function deliveredTokens(address: string): string[] {
  return smtp.to(address).map((m) => tokenFromMailText(m.text));
}

async function expectValid(token: string, valid: boolean) {
  const response = await validateToken(token);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ valid });
  expect(findAccessByToken(token, "fund-ii") !== null).toBe(valid);
}

describe("POST /api/fund-access/register: Fund I", () => {
  it("grants access at once: 201, an HttpOnly SameSite=Lax Fund I cookie, the row stored with company and phone", async () => {
    const response = await registerFund(fundI({ email: "  Rosalind@Franklin.EXAMPLE " }));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ success: true, fundId: "fund-i" });

    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^lr_fund_i=[^;]+;/);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Lax/i);
    expect(setCookie).toMatch(/;\s*Path=\/(;|$)/);
    expect(setCookie).toMatch(/;\s*Max-Age=31536000/);
    // APP_URL is http in tests: no Secure flag, no __Host- prefix.
    expect(setCookie).not.toMatch(/Secure/i);

    const rows = allAccessRequests();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({
      email: "rosalind@franklin.example",
      name: "Rosalind Franklin",
      fundId: "fund-i",
      company: "King's College",
      phone: "+44 20 7836 5454",
      accreditedConfirmation: false,
      revokedAt: null,
    });

    // The cookie carries a 32-byte token whose SHA-256 (only) is stored.
    const cookie = cookiePair(setCookie);
    const token = await tokenInCookie(cookie, "fund-i");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token!, "base64url")).toHaveLength(32);
    expect(row.accessTokenHash).toBe(hashToken(token!));
    expect(JSON.stringify(row)).not.toContain(token!);

    // It opens the Fund I documents, not Fund II's; and no mail is sent for Fund I.
    expect((await listFundDocs("fund-i", cookie)).status).toBe(200);
    expect((await listFundDocs("fund-ii", cookie)).status).toBe(401);
    await deliverMail();
    expect(allOutbox()).toEqual([]);
    expect(smtp.received).toEqual([]);
  });

  it.each([
    ["without the confirmation field", {}],
    ["with accreditedConfirmation false", { accreditedConfirmation: false }],
  ])("is granted %s (the Fund I form asks none): 201, stored as not confirmed", async (_label, extra) => {
    const response = await registerFund({ ...fundI(), ...extra });
    expect(response.status).toBe(201);
    expect(response.headers.get("Set-Cookie")).toMatch(/^lr_fund_i=/);
    expect(accessRequestByEmail("rosalind@franklin.example", "fund-i")?.accreditedConfirmation).toBe(false);
  });

  it("company and phone are optional", async () => {
    const response = await registerFund({ name: "Max Planck", email: "max@planck.example", fundId: "fund-i" });
    expect(response.status).toBe(201);
    expect(accessRequestByEmail("max@planck.example", "fund-i")).toMatchObject({ company: null, phone: null });
  });
});

describe("POST /api/fund-access/register: Fund II", () => {
  it("201 without a cookie; one row; one mail whose link APP_URL/fund-ii/documents?token=… validates", async () => {
    const response = await registerFund(fundII());
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ success: true, fundId: "fund-ii" });
    expect(response.headers.get("Set-Cookie")).toBeNull();

    const rows = allAccessRequests();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: "grace@hopper.example",
      name: "Grace Hopper",
      fundId: "fund-ii",
      accreditedConfirmation: true,
    });

    await deliverMail();
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.envelopeTo).toEqual(["grace@hopper.example"]);
    expect(mail.subject).toBe(FUND_II_SUBJECT);
    expect(mail.text).toContain("Dear Grace Hopper,");
    expect(mail.text).not.toContain("{{link}}");
    const token = tokenFromMailText(mail.text);
    expect(mail.text).toContain(`http://localhost:3000/fund-ii/documents?token=${token}`);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(rows[0]!.accessTokenHash).toBe(hashToken(token));

    // The outbox kept the placeholder and erased the sealed link once the mail went out.
    const [queued] = allOutbox();
    expect(queued).toMatchObject({ to: "grace@hopper.example", status: "sent", secretsEnc: null });
    expect(queued!.text).toContain("{{link}}");
    expect(queued!.text).not.toContain(token);

    const validated = await validateToken(token);
    expect(validated.status).toBe(200);
    expect(await validated.json()).toEqual({ valid: true });
    const cookie = validated.headers.get("Set-Cookie") ?? "";
    expect(cookie).toMatch(/^lr_fund_ii=[^;]+;/);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect((await listFundDocs("fund-ii", cookiePair(cookie))).status).toBe(200);
  });

  it("a repeat request for the same e-mail (any case or spacing) keeps one unchanged row and the first link; the holder's address gets a fresh link beside it", async () => {
    expect((await registerFund(fundII({ email: "grace@hopper.example" }))).status).toBe(201);
    await deliverMail();
    const [first] = deliveredTokens("grace@hopper.example");
    await expectValid(first!, true);

    const again = await registerFund(fundII({ email: "  GRACE@Hopper.Example\t", name: "Rear Admiral Grace Hopper" }));
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ success: true, fundId: "fund-ii" });
    await deliverMail();

    const listed = (await (await listAccessRequests(adminCookie)).json()) as RequestJson[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ email: "grace@hopper.example", fundId: "fund-ii", name: "Grace Hopper" });

    const mails = smtp.to("grace@hopper.example");
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe(FUND_II_SUBJECT);
    expect(mails[1]!.text).toContain("Someone (perhaps you) asked again for access to the Deeptech Fund II documents");
    expect(mails[1]!.text).toContain("The link we sent you before keeps working too.");
    expect(mails[1]!.text).not.toContain("Rear Admiral");
    const [, fresh] = deliveredTokens("grace@hopper.example");
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(first);
    // Both work: a stranger who types the holder's address breaks nothing, and a holder who lost the link has one.
    await expectValid(first!, true);
    await expectValid(fresh!, true);
  });

  it("a reissued link, once used, is the current one: later asks (from anyone) cannot end the access it opened", async () => {
    expect((await registerFund(fundII({ email: "ada@lovelace.example" }))).status).toBe(201);
    await deliverMail();
    expect((await registerFund(fundII({ email: "ada@lovelace.example", name: "Mallory" }))).status).toBe(201);
    await deliverMail();
    const [first, second] = deliveredTokens("ada@lovelace.example");
    const opened = await validateToken(second!);
    expect(await opened.json()).toEqual({ valid: true });
    const cookie = cookiePair(opened.headers.get("Set-Cookie"));
    // Another ask replaces only the reissued link; the access the holder opened stays.
    expect((await registerFund(fundII({ email: "ada@lovelace.example", name: "Mallory" }))).status).toBe(201);
    await deliverMail();
    const [, , third] = deliveredTokens("ada@lovelace.example");
    expect((await listFundDocs("fund-ii", cookie)).status).toBe(200);
    await expectValid(second!, true);
    await expectValid(third!, true);
    // The first link was replaced by the one the holder used.
    await expectValid(first!, false);
  });

  it("revoking a request ends its reissued link too", async () => {
    expect((await registerFund(fundII({ email: "rosalind@franklin.example" }))).status).toBe(201);
    expect((await registerFund(fundII({ email: "rosalind@franklin.example" }))).status).toBe(201);
    await deliverMail();
    const [, fresh] = deliveredTokens("rosalind@franklin.example");
    const [row] = allAccessRequests().filter((r) => r.email === "rosalind@franklin.example");
    revokeFundAccess(admin, row!.id);
    await expectValid(fresh!, false);
  });

  // The requester's name is part of the mail text: a name shaped like a placeholder stays as typed.
  it("a name that looks like a placeholder arrives as typed", async () => {
    expect((await registerFund(fundII({ name: "{{constructor}}" }))).status).toBe(201);
    await deliverMail();
    expect(smtp.received[0]?.text).toContain("Dear {{constructor}},");
  });

  it("a Fund I and a Fund II request for one e-mail are two requests, each for its own fund", async () => {
    expect((await registerFund(fundI({ email: "lise@meitner.example" }))).status).toBe(201);
    expect((await registerFund(fundII({ email: "lise@meitner.example" }))).status).toBe(201);
    expect(
      allAccessRequests()
        .map((r) => r.fundId)
        .sort(),
    ).toEqual(["fund-i", "fund-ii"]);
  });

  it("sends at most 5 mails per address a day (the link, then fresh links); further requests get the same answer, and the first link keeps working", async () => {
    const answers: string[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await registerFund(fundII({ email: i % 2 ? "Grace@Hopper.example" : "grace@hopper.example" }));
      answers.push(`${response.status} ${response.headers.get("Set-Cookie")} ${await response.text()}`);
      await deliverMail();
    }
    expect(new Set(answers)).toEqual(new Set([`201 null ${JSON.stringify({ success: true, fundId: "fund-ii" })}`]));

    expect(smtp.to("grace@hopper.example")).toHaveLength(5);
    expect(allOutbox()).toHaveLength(5);
    expect(allAccessRequests()).toHaveLength(1);
    // The link, then fresh links beside it; no request rotates the token: the link mailed first still works,
    // and so does the latest fresh one (each ask replaced the one before it).
    const tokens = smtp.to("grace@hopper.example").map((m) => tokenFromMailText(m.text));
    expect(new Set(tokens).size).toBe(5);
    await expectValid(tokens[0]!, true);
    await expectValid(tokens[3]!, false);
    await expectValid(tokens[4]!, true);
  });
});

/**
 * Finding L7 of issue 21: anyone can type someone else's address. A request for
 * an address and fund that already has a request changes nothing stored (name,
 * company, phone, token) and breaks no link or cookie of the holder's; Fund II
 * tells the holder, at their address only; Fund I still lets the visitor in
 * (it is open to anyone) without taking the holder's access away.
 * docs/decisions/012-fund-access.md.
 */
describe("POST /api/fund-access/register: someone else asks with the holder's e-mail", () => {
  const DOC = samplePdf("Fund letter", 2000);

  it("Fund II: the holder's name, company, phone and link stay; the mail goes to the holder's address only, with a fresh link and not the other name", async () => {
    const doc = insertFundDoc("fund-ii", DOC);
    expect((await registerFund(fundII({ company: "US Navy", phone: "+1 202 555 0100" }))).status).toBe(201);
    await deliverMail();
    const [link] = deliveredTokens("grace@hopper.example");
    const before = accessRequestByEmail("grace@hopper.example", "fund-ii")!;

    const other = await registerFund(
      fundII({ email: " Grace@Hopper.EXAMPLE ", name: "Mallory Mallet", company: "Mallet Ltd", phone: "+1 415 555 0199" }),
      "198.51.100.66",
    );
    expect(other.status).toBe(201);
    expect(await other.json()).toEqual({ success: true, fundId: "fund-ii" });
    expect(other.headers.get("Set-Cookie")).toBeNull();
    await deliverMail();

    const after = accessRequestByEmail("grace@hopper.example", "fund-ii")!;
    // Nothing of the holder's changed; only a second, fresh link is out (to the holder's address).
    expect({ ...after, reissuedTokenHash: null }).toEqual(before);
    expect(after.reissuedTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(after).toMatchObject({ name: "Grace Hopper", company: "US Navy", phone: "+1 202 555 0100" });
    expect(allAccessRequests()).toHaveLength(1);

    // The holder's link still opens the documents.
    await expectValid(link!, true);
    const cookie = cookiePair((await validateToken(link!)).headers.get("Set-Cookie"));
    expect((await listFundDocs("fund-ii", cookie)).status).toBe(200);
    expect((await fundFile("download", doc.id, cookie)).status).toBe(200);

    // Two mails in all, both to the holder's address; the second carries a fresh link and not the other name.
    expect(smtp.received.map((m) => m.envelopeTo)).toEqual([["grace@hopper.example"], ["grace@hopper.example"]]);
    const notice = smtp.received[1]!;
    expect(notice.subject).toBe(FUND_II_SUBJECT);
    expect(notice.text).toContain("Dear Grace Hopper,");
    expect(notice.text).toContain("The link we sent you before keeps working too.");
    expect(tokenFromMailText(notice.text)).not.toBe(link);
    expect(notice.text).not.toContain("Mallory");
    expect(notice.text).not.toContain("Mallet");
  });

  it("Fund I: the visitor gets in, the holder's cookie keeps working and the holder's details stay", async () => {
    const doc = insertFundDoc("fund-i", DOC);
    const first = await registerFund(fundI());
    expect(first.status).toBe(201);
    const holderCookie = cookiePair(first.headers.get("Set-Cookie"));
    const before = accessRequestByEmail("rosalind@franklin.example", "fund-i")!;

    const other = await registerFund(fundI({ email: "ROSALIND@franklin.example", name: "Mallory Mallet", company: "Mallet Ltd", phone: "+1 415 555 0199" }));
    expect(other.status).toBe(201);
    expect(await other.json()).toEqual({ success: true, fundId: "fund-i" });
    const otherSetCookie = other.headers.get("Set-Cookie") ?? "";
    expect(otherSetCookie).toMatch(/^lr_fund_i=[^;]+;/);
    expect(otherSetCookie).toMatch(/;\s*HttpOnly/i);
    const otherCookie = cookiePair(otherSetCookie);

    expect(accessRequestByEmail("rosalind@franklin.example", "fund-i")).toEqual(before);
    expect(allAccessRequests()).toHaveLength(1);
    for (const cookie of [holderCookie, otherCookie]) {
      expect((await listFundDocs("fund-i", cookie)).status).toBe(200);
      expect((await fundFile("view", doc.id, cookie)).status).toBe(200);
      expect((await listFundDocs("fund-ii", cookie)).status).toBe(401);
    }
    await deliverMail();
    expect(smtp.received).toEqual([]);

    // Revoking the request ends every cookie issued for it.
    revokeFundAccess(admin, before.id);
    for (const cookie of [holderCookie, otherCookie]) expect((await listFundDocs("fund-i", cookie)).status).toBe(401);
  });
});

describe("POST /api/fund-access/register: refused", () => {
  type Case = [label: string, body: Record<string, unknown>, error: string, field: string];
  const cases: Case[] = [
    ["no name", fundI({ name: undefined }), "Name is required", "name"],
    ["an empty name", fundI({ name: "" }), "Name is required", "name"],
    ["a blank name", fundII({ name: "   " }), "Name is required", "name"],
    ["an invalid e-mail", fundI({ email: "not-an-email" }), "Invalid email address", "email"],
    ["no e-mail", fundII({ email: undefined }), "Invalid email address", "email"],
    ["fundId fund-iii", fundI({ fundId: "fund-iii" }), "Fund must be fund-i or fund-ii", "fundId"],
    ["fundId FUND-I", fundI({ fundId: "FUND-I" }), "Fund must be fund-i or fund-ii", "fundId"],
    ["no fundId", fundI({ fundId: undefined }), "Fund must be fund-i or fund-ii", "fundId"],
    [
      "Fund II without the confirmation",
      fundII({ accreditedConfirmation: undefined }),
      ACCREDITED_REQUIRED,
      "accreditedConfirmation",
    ],
    [
      "Fund II with the confirmation false",
      fundII({ accreditedConfirmation: false }),
      ACCREDITED_REQUIRED,
      "accreditedConfirmation",
    ],
    ["a phone that is not a phone number", fundI({ phone: "call me maybe" }), "Enter a valid phone number", "phone"],
  ];

  it.each(cases)("%s → 400 with the message; no row, no mail, no cookie", async (_label, body, error, field) => {
    const response = await registerFund(body);
    expect(response.status).toBe(400);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    const json = (await response.json()) as { error: string; fields?: Record<string, string[]> };
    expect(json.error).toBe(error);
    expect(json.fields?.[field]).toContain(error);
    await deliverMail();
    expect(allAccessRequests()).toEqual([]);
    expect(allOutbox()).toEqual([]);
    expect(smtp.received).toEqual([]);
  });

  it("bad JSON → 400", async () => {
    const response = await callRouteWith(registerAction, jsonRequest("/api/fund-access/register", '{"name": "Grace",'));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Request body must be valid JSON" });
    expect(allAccessRequests()).toEqual([]);
  });

  it("a JSON array → 400", async () => {
    const response = await registerFund("[]");
    expect(response.status).toBe(400);
    expect(allAccessRequests()).toEqual([]);
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])(
    "Content-Type %s → 415, nothing stored",
    async (contentType) => {
      const response = await callRouteWith(registerAction, jsonRequest("/api/fund-access/register", fundII(), { contentType }));
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({ error: "Content-Type must be application/json" });
      expect(allAccessRequests()).toEqual([]);
    },
  );

  it("GET → 405 (Allow: POST)", async () => {
    const response = registerLoader();
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
  });
});

describe("POST /api/fund-access/register: rate limit", () => {
  it("after 10 requests from one client the next → 429 with Retry-After, stores nothing; another client is still served", async () => {
    const client = "198.51.100.20";
    for (let i = 0; i < 10; i++) {
      const response = await registerFund(fundI({ email: `investor-${i}@example.test` }), client);
      expect(response.status).toBe(201);
    }
    const limited = await registerFund(fundI({ email: "one-too-many@example.test" }), client);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: "Too many access requests. Please try again later." });
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(limited.headers.get("Set-Cookie")).toBeNull();
    expect(accessRequestByEmail("one-too-many@example.test", "fund-i")).toBeUndefined();

    // A Fund II request is refused too, and mails nothing.
    const limitedII = await registerFund(fundII(), client);
    expect(limitedII.status).toBe(429);
    await deliverMail();
    expect(smtp.received).toEqual([]);

    expect((await registerFund(fundI({ email: "someone-else@example.test" }), "198.51.100.21")).status).toBe(201);
    expect(allAccessRequests()).toHaveLength(11);
  });
});

describe("GET /api/fund-access/requests", () => {
  it("admin: 200 with every request in the read shape, newest first, nothing else (no token hash, company or phone)", async () => {
    expect((await registerFund(fundI())).status).toBe(201);
    expect((await registerFund(fundII())).status).toBe(201);
    const older = accessRequestByEmail("rosalind@franklin.example", "fund-i")!;
    const newer = accessRequestByEmail("grace@hopper.example", "fund-ii")!;
    getDb()
      .update(fundAccessUsers)
      .set({ createdAt: new Date("2026-01-05T10:00:00.000Z") })
      .where(eq(fundAccessUsers.id, older.id))
      .run();
    getDb()
      .update(fundAccessUsers)
      .set({ createdAt: new Date("2026-02-07T11:30:00.000Z") })
      .where(eq(fundAccessUsers.id, newer.id))
      .run();

    const response = await listAccessRequests(adminCookie);
    expect(response.status).toBe(200);
    const body = (await response.json()) as RequestJson[];
    expect(body).toEqual([
      {
        id: newer.id,
        name: "Grace Hopper",
        email: "grace@hopper.example",
        fundId: "fund-ii",
        accreditedConfirmation: true,
        createdAt: "2026-02-07T11:30:00.000Z",
      },
      {
        id: older.id,
        name: "Rosalind Franklin",
        email: "rosalind@franklin.example",
        fundId: "fund-i",
        accreditedConfirmation: false,
        createdAt: "2026-01-05T10:00:00.000Z",
      },
    ]);
    for (const entry of body) expect(entry.createdAt).toMatch(ISO_DATE);
  });

  it("admin: [] when nobody asked", async () => {
    const response = await listAccessRequests(adminCookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  });

  it.each([
    ["an approved investor", 403, "Admin access required", () => investorCookie],
    ["a visitor", 401, "Authentication required", (): string | null => null],
  ] as const)("%s → %i, without the list", async (_who, status, error, cookie) => {
    expect((await registerFund(fundII())).status).toBe(201);
    const response = await listAccessRequests(cookie());
    expect(response.status).toBe(status);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error });
    expect(text).not.toContain("grace@hopper.example");
  });

  it("a fund access cookie is not an admin session → 401", async () => {
    const registered = await registerFund(fundI());
    const response = await listAccessRequests(cookiePair(registered.headers.get("Set-Cookie")));
    expect(response.status).toBe(401);
  });
});

import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { fundAccessUsers } from "../../db/schema";
import { hashToken } from "~/modules/auth/tokens.server";
import {
  accessPass,
  findAccessByCookieValue,
  findAccessByToken,
  resendFundAccessLink,
  revokeFundAccess,
  validateFundToken,
} from "~/modules/fund-access/fund-access.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { backoffMs, flushMailer, setMailTransportForTests } from "~/modules/mail/mail.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { loggablePath } from "../../server/security";
import { allOutbox } from "../helpers/db";
import { bodyBytes, clearDocuments } from "../helpers/documents";
import {
  accessRequestByEmail,
  allAccessRequests,
  clearFundAccess,
  databaseFileText,
  deliverMail,
  everyStoredText,
  fundCookiePair,
  fundFile,
  insertFundDoc,
  joinCookies,
  listAccessRequests,
  listFundDocs,
  registerFund,
  tokenFromMailText,
  tokenInCookie,
  validateToken,
} from "../helpers/funds";
import { fakeTransport } from "../helpers/mail";
import { samplePdf } from "../helpers/sample-files";
import { clearAccountTables, cookiePair, insertAdmin, sessionCookieFor } from "../helpers/users";

/**
 * Fund access tokens (DESIGN.md §4, docs/decisions/012-fund-access.md):
 * guessing is hopeless, a token opens only its own fund, revocation is
 * immediate, and no raw token is ever stored or logged.
 */

const DECK = samplePdf("Fund II deck", 3000);

let admin: LpUser;
let adminCookie: string;
let mail: ReturnType<typeof fakeTransport>;

beforeAll(async () => {
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  adminCookie = await sessionCookieFor(admin);
});
beforeEach(() => {
  clearFundAccess();
  clearDocuments();
  mail = fakeTransport();
  setMailTransportForTests(mail.transport);
  resetRateLimitsForTests();
});
afterEach(async () => {
  await flushMailer();
  setMailTransportForTests(null);
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

/** Every mail text sent to an address, oldest first. */
function textsTo(address: string): string[] {
  return mail.sent.filter((m) => m.to === address).map((m) => String(m.text));
}

/** Ask for Fund II access as a visitor does; the token of the link that arrives. */
async function fundIIToken(email: string, name = "Grace Hopper"): Promise<string> {
  const response = await registerFund({ name, email, fundId: "fund-ii", accreditedConfirmation: true });
  expect(response.status).toBe(201);
  await deliverMail();
  const texts = textsTo(email);
  return tokenFromMailText(texts[texts.length - 1] ?? "");
}

/** Sign up for Fund I; the cookie pair and the token inside it. */
async function fundIAccess(email: string): Promise<{ cookie: string; token: string }> {
  const response = await registerFund({ name: "Rosalind Franklin", email, fundId: "fund-i" });
  expect(response.status).toBe(201);
  const cookie = cookiePair(response.headers.get("Set-Cookie"));
  const token = await tokenInCookie(cookie, "fund-i");
  if (!token) throw new Error("no token in the Fund I cookie");
  return { cookie, token };
}

/** validate-token with a fresh limiter; the Fund II cookie pair it set. */
async function fundIICookie(token: string): Promise<string> {
  resetRateLimitsForTests();
  const response = await validateToken(token);
  expect(await response.json()).toEqual({ valid: true });
  return cookiePair(response.headers.get("Set-Cookie"));
}

/** An endpoint answer that accepts nothing: 200 {valid:false} (or a 400 for a body that is not a token), and no cookie. */
async function expectRefusedByEndpoint(token: unknown) {
  resetRateLimitsForTests();
  const response = await validateToken(token);
  expect(response.headers.get("Set-Cookie")).toBeNull();
  const body = (await response.json()) as { valid?: boolean; error?: string };
  if (response.status === 200) expect(body).toEqual({ valid: false });
  else {
    expect(response.status).toBe(400);
    expect(body.valid).toBeUndefined();
  }
}

function malformedTokens(valid: string, fundIToken: string): [string, unknown][] {
  const bytes = Buffer.from(valid, "base64url");
  const lastChanged = valid.slice(0, 42) + (valid[42] === "A" ? "B" : "A");
  return [
    ["an empty string", ""],
    ["1000 characters", "A".repeat(1000)],
    ["43 base64url characters plus one", `${valid}A`],
    ["the token cut to 42 characters", valid.slice(0, 42)],
    ["the token with its last character changed", lastChanged],
    ["the token in upper case", valid.toUpperCase() === valid ? valid.toLowerCase() : valid.toUpperCase()],
    ["the token with a trailing newline", `${valid}\n`],
    ["the token with a leading space", ` ${valid}`],
    ["the token with base64 padding", `${valid}=`],
    ["the same bytes in standard base64", bytes.toString("base64")],
    ["the same bytes in hex", bytes.toString("hex")],
    ["the whole link", `http://localhost:3000/fund-ii/documents?token=${valid}`],
    ["43 unicode letters", "ŧ".repeat(43)],
    [
      "unicode look-alikes of the token",
      valid.replace(/a/g, "а").replace(/o/g, "о").replace(/e/g, "е") + (/[aoe]/.test(valid) ? "" : "а"),
    ],
    ["emoji", "🔑".repeat(22)],
    ["a NUL byte in the token", `${valid.slice(0, 20)}\u0000${valid.slice(21)}`],
    ["the stored SHA-256 (hex)", hashToken(valid)],
    ["the SHA-256 as base64url (43 characters)", createHash("sha256").update(valid).digest("base64url")],
    ["a Fund I token", fundIToken],
    ["SQL", "' OR 1=1 --"],
    ["a LIKE wildcard", "%"],
  ];
}

describe("guessing tokens", () => {
  it(
    "10,000 random 32-byte tokens and every malformed value are refused by findAccessByToken and validateFundToken",
    { timeout: 60_000 },
    async () => {
      const valid = await fundIIToken("grace@hopper.example");
      const fundI = await fundIAccess("rosalind@franklin.example");
      // The test can fail: the real token is found.
      expect(findAccessByToken(valid, "fund-ii")?.email).toBe("grace@hopper.example");
      expect(findAccessByToken(fundI.token, "fund-i")?.email).toBe("rosalind@franklin.example");

      // The malformed values, against both funds (the Fund I token is refused for Fund II only).
      const malformed: unknown[] = malformedTokens(valid, fundI.token).map(([, token]) => token);
      malformed.push(null, undefined, 42, {}, [valid], { token: valid });
      let accepted = 0;
      for (const candidate of malformed) {
        if (findAccessByToken(candidate, "fund-ii") !== null) accepted++;
        if (candidate !== fundI.token && findAccessByToken(candidate, "fund-i") !== null) accepted++;
        if (typeof candidate === "string" && validateFundToken(candidate).valid) accepted++;
      }

      // 10,000 random well-formed tokens (the lookup is by digest, whatever the fund).
      let checked = 0;
      for (let i = 0; i < 10_000; i++) {
        if (findAccessByToken(randomBytes(32).toString("base64url"), "fund-ii") !== null) accepted++;
        checked++;
      }
      expect(checked).toBe(10_000);
      expect(accepted).toBe(0);
    },
  );

  it("POST /api/fund-access/validate-token refuses every malformed value and a sample of random tokens, never setting a cookie", async () => {
    const valid = await fundIIToken("grace@hopper.example");
    const fundI = await fundIAccess("rosalind@franklin.example");
    for (const [, token] of malformedTokens(valid, fundI.token)) await expectRefusedByEndpoint(token);
    for (let i = 0; i < 100; i++) await expectRefusedByEndpoint(randomBytes(32).toString("base64url"));
    // Not a string at all.
    for (const token of [null, 42, true, [valid], { token: valid }]) await expectRefusedByEndpoint(token);
    // The real one still is valid afterwards.
    resetRateLimitsForTests();
    expect(await (await validateToken(valid)).json()).toEqual({ valid: true });
  });

  it("an empty token → 200 {valid:false}; a 1000-character one → 400 'Invalid access token'; none → 400 'Access token required'", async () => {
    const empty = await validateToken("");
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ valid: false });
    const long = await validateToken("A".repeat(1000));
    expect(long.status).toBe(400);
    expect(((await long.json()) as { error: string }).error).toBe("Invalid access token");
    const none = await validateToken(undefined);
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: string }).error).toBe("Access token required");
  });

  it("a valid token → 200 {valid:true} and an HttpOnly SameSite=Lax Fund II cookie that opens Fund II only", async () => {
    insertFundDoc("fund-ii", DECK);
    const token = await fundIIToken("grace@hopper.example");
    const response = await validateToken(token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ valid: true });
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/^lr_fund_ii=[^;]+;/);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Lax/i);
    expect(setCookie).not.toContain(token);
    const cookie = cookiePair(setCookie);
    expect(await tokenInCookie(cookie, "fund-ii")).toBe(token);

    const list = await listFundDocs("fund-ii", cookie);
    expect(list.status).toBe(200);
    expect((await list.json()) as unknown[]).toHaveLength(1);
    expect((await listFundDocs("fund-i", cookie)).status).toBe(401);
  });

  it("a Fund I token never validates for Fund II, and a Fund II token put in the Fund I cookie opens nothing", async () => {
    const fundI = await fundIAccess("rosalind@franklin.example");
    const response = await validateToken(fundI.token);
    expect(await response.json()).toEqual({ valid: false });
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect((await listFundDocs("fund-ii", fundI.cookie)).status).toBe(401);

    const fundIIValue = await fundIIToken("grace@hopper.example");
    const forged = await fundCookiePair("fund-i", fundIIValue);
    expect((await listFundDocs("fund-i", forged)).status).toBe(401);
  });

  it("a cookie with a valid token but a forged signature opens nothing", async () => {
    insertFundDoc("fund-ii", DECK);
    const token = await fundIIToken("grace@hopper.example");
    const cookie = await fundIICookie(token);
    const [name, value] = cookie.split("=") as [string, string];
    const unsigned = `${name}=${value.split(".")[0]}`;
    const resigned = `${name}=${value.split(".")[0]}.${"A".repeat(43)}`;
    for (const bad of [unsigned, resigned, `${name}=${token}`]) {
      expect((await listFundDocs("fund-ii", bad)).status).toBe(401);
    }
    expect((await listFundDocs("fund-ii", cookie)).status).toBe(200);
  });

  it("token checks are rate limited: 30 per client, then 429 with Retry-After, even for the right token (and no cookie)", async () => {
    const token = await fundIIToken("grace@hopper.example");
    resetRateLimitsForTests();
    const client = "198.51.100.30";
    for (let i = 0; i < 30; i++) {
      const response = await validateToken(randomBytes(32).toString("base64url"), { clientAddress: client });
      expect(response.status).toBe(200);
    }
    const limited = await validateToken(token, { clientAddress: client });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: "Too many attempts. Please try again later." });
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(limited.headers.get("Set-Cookie")).toBeNull();
    // Another client is not affected.
    expect(await (await validateToken(token, { clientAddress: "198.51.100.31" })).json()).toEqual({ valid: true });
  });
});

describe("revocation", () => {
  it("a revoked request's link and cookie stop working everywhere at once; a resent link restores access and the old one stays dead", async () => {
    const doc = insertFundDoc("fund-ii", DECK);
    const oldToken = await fundIIToken("grace@hopper.example");
    const oldCookie = await fundIICookie(oldToken);
    expect((await listFundDocs("fund-ii", oldCookie)).status).toBe(200);
    expect((await fundFile("download", doc.id, oldCookie)).status).toBe(200);

    const request = accessRequestByEmail("grace@hopper.example", "fund-ii")!;
    const revoked = revokeFundAccess(admin, request.id);
    expect(revoked.revokedAt).toBeInstanceOf(Date);

    resetRateLimitsForTests();
    const check = await validateToken(oldToken);
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({ valid: false });
    expect(check.headers.get("Set-Cookie")).toBeNull();
    expect(findAccessByToken(oldToken, "fund-ii")).toBeNull();
    expect(validateFundToken(oldToken).valid).toBe(false);

    const list = await listFundDocs("fund-ii", oldCookie);
    expect(list.status).toBe(401);
    expect(await list.text()).not.toContain(doc.title);
    for (const kind of ["view", "download"] as const) {
      const response = await fundFile(kind, doc.id, oldCookie);
      expect(response.status).toBe(401);
      expect(response.headers.get("Content-Disposition")).toBeNull();
    }
    // The admin list still shows the request.
    const listed = (await (await listAccessRequests(adminCookie)).json()) as { id: string }[];
    expect(listed.map((r) => r.id)).toEqual([request.id]);

    // Resending lifts the revocation with a new link; the revoked link and its cookie stay dead.
    mail.sent.length = 0;
    const restored = resendFundAccessLink(admin, request.id);
    expect(restored.revokedAt).toBeNull();
    await deliverMail();
    const texts = textsTo("grace@hopper.example");
    expect(texts).toHaveLength(1);
    const newToken = tokenFromMailText(texts[0]!);
    expect(newToken).not.toBe(oldToken);

    const newCookie = await fundIICookie(newToken);
    expect((await listFundDocs("fund-ii", newCookie)).status).toBe(200);
    const download = await fundFile("download", doc.id, newCookie);
    expect(download.status).toBe(200);
    expect((await bodyBytes(download)).equals(DECK)).toBe(true);

    resetRateLimitsForTests();
    expect(await (await validateToken(oldToken)).json()).toEqual({ valid: false });
    expect(findAccessByToken(oldToken, "fund-ii")).toBeNull();
    expect((await listFundDocs("fund-ii", oldCookie)).status).toBe(401);
    expect((await fundFile("view", doc.id, oldCookie)).status).toBe(401);
  });

  it("a request marked revoked is refused even with its current token (not only because revoking rotates the hash)", async () => {
    const doc = insertFundDoc("fund-ii", DECK);
    const token = await fundIIToken("grace@hopper.example");
    const cookie = await fundIICookie(token);
    const request = accessRequestByEmail("grace@hopper.example", "fund-ii")!;
    getDb().update(fundAccessUsers).set({ revokedAt: new Date() }).where(eq(fundAccessUsers.id, request.id)).run();
    expect(accessRequestByEmail("grace@hopper.example", "fund-ii")?.accessTokenHash).toBe(hashToken(token));

    expect(findAccessByToken(token, "fund-ii")).toBeNull();
    resetRateLimitsForTests();
    expect(await (await validateToken(token)).json()).toEqual({ valid: false });
    expect((await listFundDocs("fund-ii", cookie)).status).toBe(401);
    expect((await fundFile("download", doc.id, cookie)).status).toBe(401);
  });

  it("revoking a Fund I request ends its cookie at once", async () => {
    const doc = insertFundDoc("fund-i", DECK);
    const fundI = await fundIAccess("rosalind@franklin.example");
    expect((await fundFile("view", doc.id, fundI.cookie)).status).toBe(200);
    revokeFundAccess(admin, accessRequestByEmail("rosalind@franklin.example", "fund-i")!.id);
    expect((await listFundDocs("fund-i", fundI.cookie)).status).toBe(401);
    expect((await fundFile("view", doc.id, fundI.cookie)).status).toBe(401);
    expect(findAccessByToken(fundI.token, "fund-i")).toBeNull();
  });

  it("a revoked Fund I address signing up again gets no working access, and the request stays revoked", async () => {
    insertFundDoc("fund-i", DECK);
    await fundIAccess("rosalind@franklin.example");
    const request = accessRequestByEmail("rosalind@franklin.example", "fund-i")!;
    revokeFundAccess(admin, request.id);

    const again = await registerFund({ name: "Rosalind Franklin", email: "rosalind@franklin.example", fundId: "fund-i" });
    const setCookie = again.headers.get("Set-Cookie");
    if (setCookie) expect((await listFundDocs("fund-i", cookiePair(setCookie))).status).toBe(401);
    expect(accessRequestByEmail("rosalind@franklin.example", "fund-i")?.revokedAt).toBeInstanceOf(Date);
    expect(allAccessRequests()).toHaveLength(1);
  });

  it("a revoked Fund II address asking again gets the usual answer and a 'withdrawn' mail, not a new link", async () => {
    const oldToken = await fundIIToken("grace@hopper.example");
    revokeFundAccess(admin, accessRequestByEmail("grace@hopper.example", "fund-ii")!.id);
    mail.sent.length = 0;

    const again = await registerFund({
      name: "Grace Hopper",
      email: "GRACE@hopper.example",
      fundId: "fund-ii",
      accreditedConfirmation: true,
    });
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual({ success: true, fundId: "fund-ii" });
    expect(again.headers.get("Set-Cookie")).toBeNull();
    await deliverMail();

    const texts = textsTo("grace@hopper.example");
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain("has been withdrawn");
    expect(texts[0]).not.toMatch(/token=/);
    expect(accessRequestByEmail("grace@hopper.example", "fund-ii")?.revokedAt).toBeInstanceOf(Date);
    expect(findAccessByToken(oldToken, "fund-ii")).toBeNull();
  });

  it("revoking or resending an unknown request → 404 'Access request not found'", () => {
    for (const id of [crypto.randomUUID(), "not-an-id"]) {
      expect(() => revokeFundAccess(admin, id)).toThrow("Access request not found");
      expect(() => resendFundAccessLink(admin, id)).toThrow("Access request not found");
    }
  });
});

/**
 * A Fund I sign-up with the address of an existing request gets a pass for that
 * request in its cookie, not a new token (issue 21, finding L7; decision 012).
 * A pass is trusted inside the signed Fund I cookie only, and dies with every
 * change of the request's token.
 */
describe("Fund I passes", () => {
  async function passCookie(email: string): Promise<{ cookie: string; pass: string }> {
    const response = await registerFund({ name: "Someone Else", email, fundId: "fund-i" });
    expect(response.status).toBe(201);
    const cookie = cookiePair(response.headers.get("Set-Cookie"));
    const pass = await tokenInCookie(cookie, "fund-i");
    expect(pass).toMatch(/^pass\.[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    return { cookie, pass: pass! };
  }

  it("the pass names the request and its token's generation, neither the token nor its stored digest", async () => {
    const holder = await fundIAccess("rosalind@franklin.example");
    const { pass } = await passCookie("rosalind@franklin.example");
    const row = accessRequestByEmail("rosalind@franklin.example", "fund-i")!;
    expect(pass).toBe(accessPass(row));
    expect(pass).toContain(row.id);
    expect(pass).not.toContain(holder.token);
    expect(pass).not.toContain(row.accessTokenHash);
    expect(findAccessByCookieValue(pass, "fund-i")?.id).toBe(row.id);
  });

  it("a pass opens nothing outside the signed Fund I cookie: not Fund II, not the validate endpoint, not a link, not unsigned", async () => {
    const doc = insertFundDoc("fund-i", DECK);
    await fundIAccess("rosalind@franklin.example");
    const { cookie, pass } = await passCookie("rosalind@franklin.example");
    expect((await fundFile("view", doc.id, cookie)).status).toBe(200);

    expect((await listFundDocs("fund-ii", await fundCookiePair("fund-ii", pass))).status).toBe(401);
    expect(findAccessByCookieValue(pass, "fund-ii")).toBeNull();
    expect(findAccessByToken(pass, "fund-i")).toBeNull();
    await expectRefusedByEndpoint(pass);
    const [name, value] = cookie.split("=") as [string, string];
    expect((await listFundDocs("fund-i", `${name}=${value.split(".")[0]}`)).status).toBe(401);
  });

  it("a forged pass is refused: another row's id, another generation, a changed character", async () => {
    await fundIAccess("rosalind@franklin.example");
    await fundIAccess("lise@meitner.example");
    const { pass } = await passCookie("rosalind@franklin.example");
    const other = accessRequestByEmail("lise@meitner.example", "fund-i")!;
    const [, id, generation] = pass.split(".") as [string, string, string];
    const forged = [
      `pass.${other.id}.${generation}`,
      `pass.${id}.${createHash("sha256").update(hashToken(randomBytes(32).toString("base64url"))).digest("base64url")}`,
      `pass.${id}.${generation.slice(0, 42)}${generation[42] === "A" ? "B" : "A"}`,
      `pass.${id.toUpperCase()}.${generation}`,
      `pass.${id}.${generation}.`,
      `pass.${id}`,
      "pass.",
    ];
    for (const value of forged) {
      expect(findAccessByCookieValue(value, "fund-i")).toBeNull();
      expect((await listFundDocs("fund-i", await fundCookiePair("fund-i", value))).status).toBe(401);
    }
  });

  it("an admin's new link ends the passes (and the old token) as revoking does; the new link works", async () => {
    const holder = await fundIAccess("rosalind@franklin.example");
    const { cookie } = await passCookie("rosalind@franklin.example");
    expect((await listFundDocs("fund-i", cookie)).status).toBe(200);
    resendFundAccessLink(admin, accessRequestByEmail("rosalind@franklin.example", "fund-i")!.id);
    expect((await listFundDocs("fund-i", cookie)).status).toBe(401);
    expect((await listFundDocs("fund-i", holder.cookie)).status).toBe(401);
  });
});

describe("no raw token in the database or the logs", () => {
  it("after sign-ups, a failed and a retried mail, validation, lists, views, downloads, revocation and a resend", async () => {
    const logged: string[] = [];
    const capture = (...args: unknown[]) => {
      logged.push(
        args
          .map((a) => (typeof a === "string" ? a : a instanceof Error ? `${a.message}\n${a.stack}` : JSON.stringify(a)))
          .join(" "),
      );
    };
    for (const method of ["log", "error", "warn", "info", "debug"] as const)
      vi.spyOn(console, method).mockImplementation(capture);
    // Structured logs (request, error and security lines) are on for this test: they are part of what is scanned.
    vi.stubEnv("LOG_LEVEL", "info");
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });

    const issued: string[] = [];
    const docII = insertFundDoc("fund-ii", DECK);
    const docI = insertFundDoc("fund-i", samplePdf("Fund I letter", 2000));

    // Fund I: the token lives only in the cookie.
    const fundI = await fundIAccess("rosalind@franklin.example");
    issued.push(fundI.token);

    // Fund II with the SMTP server down: the mail waits, sealed.
    mail.goDown();
    expect(
      (
        await registerFund({
          name: "Grace Hopper",
          email: "grace@hopper.example",
          fundId: "fund-ii",
          accreditedConfirmation: true,
        })
      ).status,
    ).toBe(201);
    await deliverMail();
    const [pending] = allOutbox();
    expect(pending).toMatchObject({ status: "pending", attempts: 1 });
    expect(pending!.secretsEnc).toEqual(expect.any(String));
    expect(pending!.text).toContain("{{link}}");
    expect(logged.join("\n")).toContain("mail send failed; will retry");

    mail.comeBack();
    await deliverMail(new Date(Date.now() + backoffMs(1) + 1000));
    const first = tokenFromMailText(textsTo("grace@hopper.example")[0] ?? "");
    issued.push(first);

    // A repeat request mails a fresh link beside the first (decision 012); an admin's "send new link" mails another.
    expect((await registerFund({ name: "Grace Hopper", email: "grace@hopper.example", fundId: "fund-ii", accreditedConfirmation: true })).status).toBe(201);
    await deliverMail();
    issued.push(tokenFromMailText(textsTo("grace@hopper.example").at(-1) ?? ""));
    resendFundAccessLink(admin, accessRequestByEmail("grace@hopper.example", "fund-ii")!.id);
    await deliverMail();
    const second = tokenFromMailText(textsTo("grace@hopper.example").at(-1) ?? "");
    issued.push(second);

    // Validate (a wrong one too), list, view and download with both cookies.
    resetRateLimitsForTests();
    expect(await (await validateToken(first)).json()).toEqual({ valid: false });
    const cookieII = await fundIICookie(second);
    const both = joinCookies(fundI.cookie, cookieII);
    expect((await listFundDocs("fund-ii", both)).status).toBe(200);
    expect((await listFundDocs("fund-i", both)).status).toBe(200);
    for (const kind of ["view", "download"] as const) {
      expect((await fundFile(kind, docII.id, both)).status).toBe(200);
      expect((await fundFile(kind, docI.id, both)).status).toBe(200);
    }

    // Revoke and resend: a third link.
    const request = accessRequestByEmail("grace@hopper.example", "fund-ii")!;
    revokeFundAccess(admin, request.id);
    expect((await listFundDocs("fund-ii", cookieII)).status).toBe(401);
    resendFundAccessLink(admin, request.id);
    await deliverMail();
    const texts = textsTo("grace@hopper.example");
    const third = tokenFromMailText(texts[texts.length - 1] ?? "");
    issued.push(third);
    expect(new Set(issued).size).toBe(5);

    // Every mail went out, each with its link; the outbox kept only {{link}} and erased the sealed value.
    const outbox = allOutbox();
    expect(outbox).toHaveLength(4);
    expect(outbox.filter((row) => row.text.includes("{{link}}"))).toHaveLength(4);
    for (const row of outbox) {
      expect(row.status).toBe("sent");
      expect(row.secretsEnc).toBeNull();
    }

    const stored = everyStoredText();
    expect(stored.some((s) => s.table === "fund_access_users")).toBe(true);
    expect(stored.some((s) => s.table === "access_log")).toBe(true);
    const fileBytes = databaseFileText();
    const logText = logged.join("\n");
    const hits: string[] = [];
    for (const token of issued) {
      for (const s of stored) if (s.value.includes(token)) hits.push(`${s.table}.${s.column}`);
      if (fileBytes.includes(token)) hits.push("database file");
      if (logText.includes(token)) hits.push("log");
    }
    expect(hits).toEqual([]);
    // The scan would have found them: the mails did carry the links.
    expect(mail.sent.map((m) => String(m.text)).join("\n")).toContain(third);
  });

  it("loggablePath masks the token of a documents link", () => {
    const masked = loggablePath("/fund-ii/documents?token=abc");
    expect(masked).not.toContain("abc");
    expect(masked).toBe("/fund-ii/documents?token=***");
    const real = randomBytes(32).toString("base64url");
    const logged = loggablePath(`/fund-ii/documents?utm_source=mail&token=${real}`);
    expect(logged).not.toContain(real);
    expect(logged).toContain("utm_source=mail");
    expect(loggablePath(`/fund-ii/documents?Token=${real}&token=${real}`)).not.toContain(real);
  });

  it("the access request list never includes the token hash", async () => {
    await fundIIToken("grace@hopper.example");
    const row = allAccessRequests()[0]!;
    const text = await (await listAccessRequests(adminCookie)).text();
    expect(text).not.toContain(row.accessTokenHash);
  });
});

import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mailsTo } from "./mail";
import { expect, type APIRequestContext } from "@playwright/test";
import { randomClientIp, rawRequest, withDb } from "./documents";
import { BASE_URL } from "./origin";

/**
 * The fund roles of the authorization matrix (DESIGN.md §6,
 * docs/decisions/012-fund-access.md), made over HTTP as a visitor would:
 * a Fund I holder (the sign-up answers with the access cookie), a Fund II
 * holder (the e-mailed link, opened, becomes the cookie) and a revoked Fund II
 * holder (an admin revoked the request; the holder keeps the old cookie).
 */

export type FundId = "fund-i" | "fund-ii";

/** The access cookie of each fund over http (the e2e server does not use `__Host-`). */
export const FUND_COOKIE: Record<FundId, string> = { "fund-i": "lr_fund_i", "fund-ii": "lr_fund_ii" };

/** A fund access holder: the cookie as sent on the wire ("name=value") and the raw token inside it. */
export type FundHolder = { email: string; cookie: string; token: string };

/** The subject of the Fund II link mail (fund-access.server.ts). */
export const FUND_II_LINK_SUBJECT = /Deeptech Fund II documents access link/;

/** A raw token of the right shape (32 random bytes, base64url) that no request holds. */
export function bogusToken(): string {
  return randomBytes(32).toString("base64url");
}

export function sha256Hex(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Every way a token could show up in an answer: as typed, as react-router's
 * cookie encoding (base64 of its JSON, also URI-encoded), its bytes in plain
 * base64 or hex, and its stored SHA-256 digest.
 */
export function tokenForms(token: string): string[] {
  const cookieValue = Buffer.from(JSON.stringify(token), "utf8").toString("base64");
  const bytes = Buffer.from(token, "base64url");
  return [...new Set([token, cookieValue, encodeURIComponent(cookieValue), bytes.toString("base64"), bytes.toString("hex"), sha256Hex(token)])];
}

/** The raw token inside a fund cookie ("name=value", or a whole Set-Cookie line): react-router signs base64(JSON) and URI-encodes it. */
export function tokenInCookie(cookie: string): string {
  const pair = cookie.split(";")[0]!;
  const value = decodeURIComponent(pair.slice(pair.indexOf("=") + 1));
  const data = value.slice(0, value.lastIndexOf("."));
  const token: unknown = JSON.parse(Buffer.from(data, "base64").toString("utf8"));
  expect(typeof token, `a token in ${cookie}`).toBe("string");
  return token as string;
}

/**
 * The fund cookie ("name=value") a Set-Cookie header (lines joined by "\n")
 * sets, if any; a line that clears it (Max-Age=0: an empty value, signed) does not count.
 */
export function fundCookieIn(setCookie: string | undefined, fundId: FundId): string | undefined {
  const line = (setCookie ?? "")
    .split("\n")
    .find((l) => l.startsWith(`${FUND_COOKIE[fundId]}=`) && !/;\s*Max-Age=0(;|$)/i.test(l) && !l.startsWith(`${FUND_COOKIE[fundId]}=;`));
  return line?.split(";")[0];
}

export function uniqueFundEmail(label: string, tag: string): string {
  return `matrix-${label}-${tag}-${randomBytes(3).toString("hex")}@example.com`;
}

/** POST /api/fund-access/register from a client address of its own (the sign-up limit is per address). */
export async function registerFundAccess(body: Record<string, unknown>) {
  const answer = await rawRequest({
    method: "POST",
    path: "/api/fund-access/register",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": randomClientIp() },
    body: Buffer.from(JSON.stringify(body)),
  });
  const setCookie = answer.headers["set-cookie"];
  return { status: answer.status, setCookie: Array.isArray(setCookie) ? setCookie.join("\n") : setCookie, body: answer.body.toString("utf8") };
}

/** A Fund I holder: the sign-up grants access at once, as the lr_fund_i cookie. */
export async function fundIHolder(email: string): Promise<FundHolder> {
  const answer = await registerFundAccess({ name: "Matrix Fund I Holder", email, fundId: "fund-i" });
  expect(answer.status, answer.body).toBe(201);
  const cookie = fundCookieIn(answer.setCookie, "fund-i");
  expect(cookie, "the Fund I sign-up sets lr_fund_i").toBeTruthy();
  return { email, cookie: cookie!, token: tokenInCookie(cookie!) };
}

/**
 * Wait until the outbox has nothing due left to send. A sign-up made then
 * starts a delivery run of its own, so its mail comes at once rather than with
 * the 30 s worker (see MAIL_TIMEOUT_MS). A mail waiting out a retry delay
 * (a send that failed on a busy machine) is not due and does not hold this up.
 */
export async function outboxIdle() {
  const due = "select count(*) as n from email_outbox where status = 'pending' and next_attempt_at <= ?";
  await expect
    .poll(() => withDb((db) => (db.prepare(due).get(Date.now()) as { n: number }).n), {
      message: "the outbox is delivered",
      timeout: MAIL_TIMEOUT_MS,
    })
    .toBe(0);
  // The run that sent the last mail ends just after marking it sent.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Ask for Fund II access and read the link's token from the mail the site sent (one sign-up at a time: see outboxIdle). */
export async function requestFundIILink(email: string, name = "Matrix Fund II Holder"): Promise<string> {
  await outboxIdle();
  const answer = await registerFundAccess({ name, email, fundId: "fund-ii", accreditedConfirmation: true });
  expect(answer.status, answer.body).toBe(201);
  expect(fundCookieIn(answer.setCookie, "fund-ii"), "Fund II access comes by e-mail, not as a cookie").toBeUndefined();
  return mailedLinkToken(email);
}

/**
 * How long a link mail may take. The outbox is delivered on a kick after each
 * request (a kick during a run asks for one more run) and by a worker every
 * 30 s, which also picks up a send that failed once. Hence more than 30 s, not
 * the 15 s of latestMailTo. Every registration mails every admin, and the e2e
 * database gathers an admin per test: on a busy machine the outbox behind a
 * sign-up can hold hundreds of mails, hence 90 s.
 */
export const MAIL_TIMEOUT_MS = 90_000;

/** The tokens of every Fund II link mailed to this address so far, oldest first (tests/e2e/mail-sink.ts writes one JSON file per mail). */
export function mailedLinkTokens(email: string): string[] {
  const prefix = `${BASE_URL}/fund-ii/documents?token=`;
  const tokens: string[] = [];
  for (const mail of mailsTo(email, FUND_II_LINK_SUBJECT)) {
    for (const link of mail.text.match(/https?:\/\/\S+/g) ?? []) {
      if (link.startsWith(prefix)) tokens.push(new URL(link).searchParams.get("token") ?? "");
    }
  }
  return tokens;
}

/** Wait for a Fund II link mailed to this address (with `digest`: the one whose token the request now stores); returns its token. */
export async function mailedLinkToken(email: string, digest?: string): Promise<string> {
  let token = "";
  await expect
    .poll(
      () => {
        const tokens = mailedLinkTokens(email).filter((t) => digest === undefined || sha256Hex(t) === digest);
        token = tokens.at(-1) ?? "";
        return token !== "";
      },
      { message: `a Fund II link mailed to ${email}`, timeout: MAIL_TIMEOUT_MS },
    )
    .toBe(true);
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return token;
}

/** A Fund II holder: the mailed link, opened (the loader sets lr_fund_ii and redirects to the clean URL). */
export async function fundIIHolderByLink(context: APIRequestContext, email: string): Promise<FundHolder> {
  const token = await requestFundIILink(email);
  const response = await context.get(`/fund-ii/documents?token=${token}`, { headers: { "X-Forwarded-For": randomClientIp() } });
  expect(response.status(), "the link redirects to the clean URL").toBe(302);
  expect(response.headers()["location"]).toBe("/fund-ii/documents");
  const cookie = fundCookieIn(response.headers()["set-cookie"], "fund-ii");
  expect(cookie, "the link sets lr_fund_ii").toBeTruthy();
  expect(tokenInCookie(cookie!)).toBe(token);
  return { email, cookie: cookie!, token };
}

/** A Fund II holder through POST /api/fund-access/validate-token (what the page does with a token left in storage). */
export async function fundIIHolderByValidation(context: APIRequestContext, email: string): Promise<FundHolder> {
  const token = await requestFundIILink(email);
  const response = await context.post("/api/fund-access/validate-token", { data: { token }, headers: { "X-Forwarded-For": randomClientIp() } });
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ valid: true });
  const cookie = fundCookieIn(response.headers()["set-cookie"], "fund-ii");
  expect(cookie, "a valid token comes back as lr_fund_ii").toBeTruthy();
  expect(tokenInCookie(cookie!)).toBe(token);
  return { email, cookie: cookie!, token };
}

/** A request's id, as the admin sees it in GET /api/fund-access/requests. */
export async function fundRequestId(admin: APIRequestContext, email: string, fundId: FundId): Promise<string> {
  const response = await admin.get("/api/fund-access/requests");
  expect(response.status()).toBe(200);
  const requests = (await response.json()) as { id: string; email: string; fundId: FundId }[];
  const found = requests.find((r) => r.email === email.toLowerCase() && r.fundId === fundId);
  expect(found, `a ${fundId} request for ${email}`).toBeTruthy();
  return found!.id;
}

/** The admin revokes a request from the dashboard (the no-JavaScript form: a redirect back to the list). */
export async function revokeFromAdmin(admin: APIRequestContext, requestId: string) {
  const response = await admin.post("/admin/fund-access", { form: { intent: "revoke-fund-access", requestId } });
  expect(response.status()).toBe(303);
  expect(new URL(response.headers()["location"] ?? "", BASE_URL).pathname).toBe("/admin/fund-access");
  expect(fundRequestRow(requestId)?.revoked_at, "the request is revoked").toBeTruthy();
}

export type FundRequestRow = { id: string; email: string; fund_id: FundId; access_token_hash: string; revoked_at: number | null };

export function fundRequestRow(id: string): FundRequestRow | undefined {
  return withDb((db) => db.prepare("select * from fund_access_users where id = ?").get(id) as FundRequestRow | undefined);
}

export function fundRequestRowByEmail(email: string, fundId: FundId): FundRequestRow | undefined {
  return withDb(
    (db) => db.prepare("select * from fund_access_users where email = ? and fund_id = ?").get(email.toLowerCase(), fundId) as FundRequestRow | undefined,
  );
}

export function fundDocumentExists(id: string): boolean {
  return withDb((db) => db.prepare("select id from fund_documents where id = ?").get(id)) !== undefined;
}

/** A fund document row whose stored path was tampered with (the server must never follow it). */
export function insertFundDocumentRow(filePath: string, fundId: FundId): string {
  const id = randomUUID();
  withDb(
    (db) =>
      db
        .prepare(
          "insert into fund_documents (id, fund_id, title, description, category, file_name, file_path, file_size, mime_type) values (?, ?, ?, null, 'fund_documents', 'tampered.pdf', ?, 1, 'application/pdf')",
        )
        .run(id, fundId, `Tampered ${id}`, filePath),
    { write: true },
  );
  return id;
}

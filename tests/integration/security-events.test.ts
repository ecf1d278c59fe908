import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents } from "../../db/schema";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { countSessions } from "~/modules/auth/session.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { setLogSinkForTests, withRequestContext } from "~/modules/logging/log.server";
import type { LpUser } from "~/modules/lp-users/lp-users.server";
import { flushMailer, setMailTransportForTests } from "~/modules/mail/mail.server";
import { action as fundAccessAction } from "~/routes/admin/fund-access";
import { action as loginAction } from "~/routes/api/auth/login";
import { action as logoutAction } from "~/routes/api/auth/logout";
import { action as registerAction } from "~/routes/api/auth/register";
import { action as statusAction } from "~/routes/api/auth/user-status";
import { action as deleteDocumentAction } from "~/routes/api/document";
import { action as documentsAction } from "~/routes/api/documents";
import { action as fundUploadAction } from "~/routes/api/fund-documents/index";
import { loader as fundIDocumentsLoader } from "~/routes/funds/fund-i-documents";
import { loader as fundIIDocumentsLoader } from "~/routes/funds/fund-ii-documents";
import { action as forgotPasswordAction } from "~/routes/lp/forgot-password";
import { action as resetPasswordAction } from "~/routes/lp/reset-password";
import { action as confirmRegistrationAction } from "~/routes/lp/register-confirm";
import { clearDocuments, uploadRequest } from "../helpers/documents";
import {
  accessRequestByEmail,
  clearFundAccess,
  deleteFundDoc,
  registerFund,
  tokenFromMailText,
  tokenInCookie,
  validateToken,
} from "../helpers/funds";
import { callRoute, formRequest } from "../helpers/http";
import { fakeTransport } from "../helpers/mail";
import { MIME, samplePdf } from "../helpers/sample-files";
import { TEST_CLIENT_ADDRESS } from "../helpers/test-env";
import {
  FIXTURE_PASSWORD,
  ORIGIN,
  apiRequest,
  callRouteWith,
  clearAccountTables,
  cookiePair,
  fixturePasswordHash,
  insertAdmin,
  insertUser,
  sessionCookieFor,
  userById,
} from "../helpers/users";

/**
 * The security events an operator alerts on (app/modules/logging/log.server.ts),
 * produced by the real route actions and loaders, called the way React Router
 * calls them. Each call runs inside withRequestContext as server/app.ts runs a
 * request, so a line must carry that request's id and client address. Every
 * line written (the test sink) and anything printed to the console is scanned
 * for the secrets of the flow: passwords, hashes, session cookies, reset and
 * fund tokens.
 */

type Line = Record<string, unknown> & { time: string; level: string; msg: string; event?: string };
type Ctx = { requestId: string; ip: string; userAgent: string; /** Index range of the sink's lines written during the request. */ from: number; to: number };

const IP = TEST_CLIENT_ADDRESS;
const NEW_PASSWORD = "a brand new passphrase for the reset";
const RESET_LINK = /http:\/\/localhost:3000\/lp\/reset-password\?token=([A-Za-z0-9_-]+)/;


let raw: string[] = [];
let consoleOutput: unknown[][] = [];
let mail: ReturnType<typeof fakeTransport>;
let admin: LpUser;
let adminCookie: string;
let investor: LpUser;

beforeAll(async () => {
  clearAccountTables();
  admin = await insertAdmin({ email: "admin@lumenridge.example", name: "Ada Admin" });
  adminCookie = await sessionCookieFor(admin);
  investor = await insertUser({ email: "lp@fund.example", name: "Linus Pauling", status: "approved" });
});
afterAll(() => {
  setMailTransportForTests(null);
});
beforeEach(() => {
  raw = [];
  consoleOutput = [];
  setLogSinkForTests((line) => raw.push(line));
  for (const method of ["log", "error", "warn", "info", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      consoleOutput.push(args);
    });
  }
  mail = fakeTransport();
  setMailTransportForTests(mail.transport);
  clearFundAccess();
  clearDocuments();
  resetRateLimitsForTests();
});
afterEach(async () => {
  await flushMailer();
  setLogSinkForTests(null);
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

/** Run one "request" as server/app.ts does: inside a request context with a fresh id and the client address. */
async function inRequest<T>(run: () => Promise<T> | T): Promise<{ result: T; ctx: Ctx }> {
  const context = { requestId: randomUUID(), ip: IP, userAgent: "security-events-test/1.0" };
  const from = raw.length;
  const result = await withRequestContext(context, async () => run());
  return { result, ctx: { ...context, from, to: raw.length } };
}

/** A loader that answers by throwing a Response (a redirect) gives that Response back. */
async function thrownOrReturned(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

function lines(): Line[] {
  return raw.map((text) => JSON.parse(text) as Line);
}

function eventsNamed(event: string): Line[] {
  return lines().filter((line) => line.event === event);
}

/**
 * The one line of `event` written during `ctx`'s request: level, msg, event,
 * client address and request id as the operator reads them, and `fields`.
 */
function expectEvent(event: string, ctx: Ctx, fields: Record<string, unknown>, level: "info" | "warn" = "info"): Line {
  const during = raw.slice(ctx.from, ctx.to).map((text) => JSON.parse(text) as Line);
  const found = during.filter((line) => line.event === event);
  expect(found, `one ${event} line in:\n${raw.slice(ctx.from, ctx.to).join("\n")}`).toHaveLength(1);
  const line = found[0]!;
  expect(line).toMatchObject({ level, msg: event, event, ip: ctx.ip, ...fields });
  expect(line.requestId).toBe(ctx.requestId);
  // Every other line of the request (errors, mail, other events) carries its id too.
  for (const other of during) expect(other.requestId).toBe(ctx.requestId);
  expect(line.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  // The audit trail holds the same event, tied to the same request, with the line's fields as details.
  const rows = getDb()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.requestId, ctx.requestId), eq(auditEvents.event, event)))
    .all();
  expect(rows, `one ${event} audit row`).toHaveLength(1);
  expect(rows[0]).toMatchObject({ ip: ctx.ip, userAgent: ctx.userAgent });
  expect(JSON.parse(rows[0]!.details)).toMatchObject(fields);
  return line;
}

/** Every captured byte: the sink's lines and whatever reached the console. */
function everythingCaptured(): string {
  return [...raw, ...consoleOutput.map((args) => args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "))].join("\n");
}

function expectNoSecrets(...secrets: string[]) {
  const output = everythingCaptured();
  for (const secret of secrets) {
    expect(secret.length).toBeGreaterThan(8);
    expect(output, `a secret (${secret.slice(0, 6)}…) was logged`).not.toContain(secret);
  }
}

/** The value part of a `name=value` cookie pair (what an attacker would replay). */
const cookieValue = (pair: string) => decodeURIComponent(pair.slice(pair.indexOf("=") + 1));

const signIn = (email: string, password: string) =>
  callRouteWith(loginAction, apiRequest("POST", "/api/auth/login", { json: { email, password } }));

function adminForm(fields: Record<string, string>): Request {
  return new Request(`${ORIGIN}/admin/fund-access`, {
    method: "POST",
    headers: { Cookie: adminCookie },
    body: new URLSearchParams({ ...fields, _enhanced: "1" }),
  });
}

async function sentTextTo(address: string): Promise<string[]> {
  await flushMailer();
  return mail.sent.filter((m) => m.to === address).map((m) => String(m.text));
}

describe("sign-in and sign-out", () => {
  it("auth.sign_in: user id, e-mail, role; never the password, its hash or the session cookie", async () => {
    const { result: response, ctx } = await inRequest(() => signIn("lp@fund.example", FIXTURE_PASSWORD));
    expect(response.status).toBe(200);
    expectEvent("auth.sign_in", ctx, { userId: investor.id, email: "lp@fund.example", isAdmin: false, portal: "any" });
    expect(eventsNamed("auth.sign_in_failed")).toEqual([]);
    const session = cookiePair(response.headers.get("Set-Cookie"));
    expectNoSecrets(FIXTURE_PASSWORD, await fixturePasswordHash(), cookieValue(session));
  });

  it("auth.sign_in_failed (warn) for a wrong password: the e-mail tried and a reason, not the password", async () => {
    const wrong = "not-the-right-password-at-all";
    const { result: response, ctx } = await inRequest(() => signIn("lp@fund.example", wrong));
    expect(response.status).toBe(401);
    expectEvent("auth.sign_in_failed", ctx, { email: "lp@fund.example", reason: "wrong e-mail or password" }, "warn");
    expect(eventsNamed("auth.sign_in")).toEqual([]);
    expectNoSecrets(wrong, FIXTURE_PASSWORD, await fixturePasswordHash());
  });

  it("auth.sign_in_failed for an unknown e-mail too", async () => {
    const { result: response, ctx } = await inRequest(() => signIn("nobody@nowhere.example", "some-password-guess"));
    expect(response.status).toBe(401);
    expectEvent("auth.sign_in_failed", ctx, { email: "nobody@nowhere.example" }, "warn");
    expectNoSecrets("some-password-guess");
  });

  it("auth.sign_in_failed (warn) for a pending account with the right password: its id and why; no session, no sign_in", async () => {
    const pending = await insertUser({ status: "pending" });
    const before = countSessions(pending.id);
    const { result: response, ctx } = await inRequest(() => signIn(pending.email, FIXTURE_PASSWORD));
    expect(response.status).toBe(403);
    expectEvent("auth.sign_in_failed", ctx, { userId: pending.id, email: pending.email, reason: "forbidden" }, "warn");
    expect(eventsNamed("auth.sign_in")).toEqual([]);
    expect(countSessions(pending.id)).toBe(before);
    expectNoSecrets(FIXTURE_PASSWORD, await fixturePasswordHash());
  });

  it("auth.sign_out: the user id, not the cookie; a sign-out without a session logs nothing", async () => {
    const cookie = await sessionCookieFor(investor);
    const { result: response, ctx } = await inRequest(() =>
      callRouteWith(logoutAction, apiRequest("POST", "/api/auth/logout", { cookie })),
    );
    expect(response.status).toBe(200);
    expectEvent("auth.sign_out", ctx, { userId: investor.id });
    expectNoSecrets(cookieValue(cookie));

    await inRequest(() => callRouteWith(logoutAction, apiRequest("POST", "/api/auth/logout")));
    await inRequest(() => callRouteWith(logoutAction, apiRequest("POST", "/api/auth/logout", { cookie })));
    expect(eventsNamed("auth.sign_out")).toHaveLength(1);
  });
});

describe("accounts", () => {
  it("a registration: the link asked for (no account yet), auth.register 'pending review' on confirmation, then 'already registered'; never the password or the link", async () => {
    const password = "my own registration passphrase";
    const body = { email: "Marie@Curie.example", password, name: "Marie Curie" };
    const { result: response, ctx } = await inRequest(() =>
      callRouteWith(registerAction, apiRequest("POST", "/api/auth/register", { json: body })),
    );
    expect(response.status).toBe(201);
    expectEvent("auth.registration_link_requested", ctx, { email: "marie@curie.example", via: "register", outcome: "link sent" });
    expect(eventsNamed("auth.register")).toEqual([]);

    const [mailed] = await sentTextTo("marie@curie.example");
    const token = /\/lp\/register\/confirm\?token=([A-Za-z0-9_-]{43})/.exec(mailed ?? "")?.[1] ?? "";
    expect(token).not.toBe("");
    const confirmed = await inRequest(() =>
      callRouteWith(
        confirmRegistrationAction as never,
        new Request(`${ORIGIN}/lp/register/confirm?token=${token}`, { method: "POST", body: new URLSearchParams({ password }) }),
      ),
    );
    expect((confirmed.result as Response).status).toBe(303);
    const created = expectEvent("auth.register", confirmed.ctx, { email: "marie@curie.example", outcome: "pending review" });
    expect(userById(created.userId as string).email).toBe("marie@curie.example");

    const again = await inRequest(() => callRouteWith(registerAction, apiRequest("POST", "/api/auth/register", { json: body })));
    expect(again.result.status).toBe(201);
    expectEvent("auth.register", again.ctx, { userId: created.userId, outcome: "already registered" });
    expectNoSecrets(password, userById(created.userId as string).passwordHash, token);
  });

  it("auth.password_reset_requested then auth.password_reset; the reset token and the new password appear in no line", async () => {
    const user = await insertUser({ status: "approved" });
    const asked = await inRequest(() => callRoute(forgotPasswordAction, formRequest("/lp/forgot-password", { email: user.email })));
    expect((asked.result as Response).status).toBe(303);
    expectEvent("auth.password_reset_requested", asked.ctx, { userId: user.id, email: user.email, outcome: "link sent" });

    const [text] = await sentTextTo(user.email);
    const token = text?.match(RESET_LINK)?.[1];
    expect(token, "a reset link in the mail").toBeTruthy();

    const reset = await inRequest(() =>
      callRoute(resetPasswordAction, formRequest("/lp/reset-password", { token: token!, password: NEW_PASSWORD })),
    );
    expect((reset.result as Response).status).toBe(303);
    expectEvent("auth.password_reset", reset.ctx, { userId: user.id, email: user.email });
    expectNoSecrets(token!, NEW_PASSWORD, userById(user.id).passwordHash, await fixturePasswordHash());
  });

  it("auth.password_reset_requested for an unknown address says so (same answer to the visitor)", async () => {
    const { ctx } = await inRequest(() => callRoute(forgotPasswordAction, formRequest("/lp/forgot-password", { email: "ghost@nowhere.example" })));
    const line = expectEvent("auth.password_reset_requested", ctx, { email: "ghost@nowhere.example", outcome: "no such account" });
    expect(line).not.toHaveProperty("userId");
  });

  it("user.status_changed: actor, user, from and to", async () => {
    const pending = await insertUser({ status: "pending" });
    const patch = (status: string) =>
      inRequest(() =>
        callRouteWith(statusAction, apiRequest("PATCH", `/api/auth/users/${pending.id}/status`, { cookie: adminCookie, json: { status } }), {
          params: { id: pending.id },
        }),
      );
    const approved = await patch("approved");
    expect(approved.result.status).toBe(200);
    expectEvent("user.status_changed", approved.ctx, { actorId: admin.id, userId: pending.id, email: pending.email, from: "pending", to: "approved" });

    const rejected = await patch("rejected");
    expect(rejected.result.status).toBe(200);
    expectEvent("user.status_changed", rejected.ctx, { actorId: admin.id, userId: pending.id, from: "approved", to: "rejected" });
    expectNoSecrets(cookieValue(adminCookie));
  });
});

describe("documents", () => {
  const file = { bytes: samplePdf("Q3 letter"), name: "q3-letter.pdf", type: MIME.pdf };

  it("document.uploaded and document.deleted for an LP document: actor, kind lp, id", async () => {
    const up = await inRequest(() =>
      callRouteWith(documentsAction, uploadRequest("/api/documents", { fields: { title: "Q3 Letter", category: "reports" }, file, cookie: adminCookie })),
    );
    expect(up.result.status).toBe(201);
    const { id } = (await up.result.json()) as { id: string };
    expectEvent("document.uploaded", up.ctx, {
      actorId: admin.id,
      kind: "lp",
      documentId: id,
      category: "reports",
      bytes: file.bytes.byteLength,
      mimeType: MIME.pdf,
    });

    const del = await inRequest(() =>
      callRouteWith(deleteDocumentAction, apiRequest("DELETE", `/api/documents/${id}`, { cookie: adminCookie }), { params: { id } }),
    );
    expect(del.result.status).toBe(200);
    expectEvent("document.deleted", del.ctx, { actorId: admin.id, kind: "lp", documentId: id, title: "Q3 Letter" });
    expectNoSecrets(cookieValue(adminCookie));
  });

  it("document.uploaded and document.deleted for a fund document: kind is the fund", async () => {
    const up = await inRequest(() =>
      callRouteWith(
        fundUploadAction,
        uploadRequest("/api/fund-documents", { fields: { title: "Fund II Deck", category: "pitchdeck", fundId: "fund-ii" }, file, cookie: adminCookie }),
      ),
    );
    expect(up.result.status).toBe(201);
    const { id } = (await up.result.json()) as { id: string };
    expectEvent("document.uploaded", up.ctx, { actorId: admin.id, kind: "fund-ii", documentId: id, category: "pitchdeck" });

    const del = await inRequest(() => deleteFundDoc(id, adminCookie));
    expect(del.result.status).toBe(200);
    expectEvent("document.deleted", del.ctx, { actorId: admin.id, kind: "fund-ii", documentId: id, title: "Fund II Deck" });
  });

  it("a refused upload (no admin) logs no document.uploaded", async () => {
    const investorCookie = await sessionCookieFor(investor);
    const { result } = await inRequest(() =>
      callRouteWith(documentsAction, uploadRequest("/api/documents", { fields: { title: "Nope" }, file, cookie: investorCookie })),
    );
    expect(result.status).toBe(403);
    expect(eventsNamed("document.uploaded")).toEqual([]);
  });
});

describe("fund access", () => {
  const fundI = { name: "Rosalind Franklin", email: "rosalind@franklin.example", fundId: "fund-i", company: "King's College" };
  const fundII = { name: "Grace Hopper", email: "grace@hopper.example", fundId: "fund-ii", accreditedConfirmation: true };

  /** Fund II sign-up and the token from the mailed link. */
  async function fundIIHolder(): Promise<{ token: string; ctx: Ctx }> {
    const { result, ctx } = await inRequest(() => registerFund(fundII, IP));
    expect(result.status).toBe(201);
    const texts = await sentTextTo(fundII.email);
    return { token: tokenFromMailText(texts.at(-1) ?? ""), ctx };
  }

  it("fund.access_granted for Fund I: fund, e-mail, outcome; not the token its cookie carries", async () => {
    const { result, ctx } = await inRequest(() => registerFund(fundI, IP));
    expect(result.status).toBe(201);
    expectEvent("fund.access_granted", ctx, { fundId: "fund-i", email: fundI.email, outcome: "granted" });
    expect(eventsNamed("fund.access_requested")).toEqual([]);
    const pair = cookiePair(result.headers.get("Set-Cookie"));
    const token = await tokenInCookie(pair, "fund-i");
    expect(token).toBeTruthy();
    expectNoSecrets(token!, cookieValue(pair));
  });

  it("fund.access_requested for Fund II: 'link mailed'; the mailed token appears nowhere", async () => {
    const { token, ctx } = await fundIIHolder();
    expectEvent("fund.access_requested", ctx, { fundId: "fund-ii", email: fundII.email, outcome: "link mailed" });
    expect(eventsNamed("fund.access_granted")).toEqual([]);
    expectNoSecrets(token);
  });

  it("fund.token_validated / fund.token_refused (warn), through the API and the e-mailed link; no raw token anywhere", async () => {
    const { token } = await fundIIHolder();
    const wrong = "A".repeat(43);
    const guessedFundI = "B".repeat(43);

    const api = await inRequest(() => validateToken(token, { clientAddress: IP }));
    expect(await api.result.json()).toEqual({ valid: true });
    expectEvent("fund.token_validated", api.ctx, { fundId: "fund-ii", email: fundII.email, via: "api" });

    const apiBad = await inRequest(() => validateToken(wrong, { clientAddress: IP }));
    expect(await apiBad.result.json()).toEqual({ valid: false });
    const refused = expectEvent("fund.token_refused", apiBad.ctx, { fundId: "fund-ii", via: "api" }, "warn");
    expect(refused).not.toHaveProperty("email");

    const link = await inRequest(() =>
      thrownOrReturned(() => callRouteWith(fundIIDocumentsLoader as never, new Request(`${ORIGIN}/fund-ii/documents?token=${token}`))),
    );
    expect((link.result as Response).status).toBe(302);
    expectEvent("fund.token_validated", link.ctx, { fundId: "fund-ii", via: "link" });

    const linkBad = await inRequest(() =>
      thrownOrReturned(() => callRouteWith(fundIIDocumentsLoader as never, new Request(`${ORIGIN}/fund-ii/documents?token=${wrong}`))),
    );
    expect(linkBad.result).toMatchObject({ init: { status: 403 } });
    expectEvent("fund.token_refused", linkBad.ctx, { fundId: "fund-ii", via: "link" }, "warn");

    const fundILink = await inRequest(() =>
      thrownOrReturned(() => callRouteWith(fundIDocumentsLoader as never, new Request(`${ORIGIN}/fund-i/documents?token=${guessedFundI}`))),
    );
    expect((fundILink.result as Response).headers.get("Location")).toBe("/fund-i/signup");
    expectEvent("fund.token_refused", fundILink.ctx, { fundId: "fund-i", via: "link" }, "warn");

    expectNoSecrets(token, wrong, guessedFundI);
  });

  it("fund.access_revoked and fund.link_resent (admin dashboard): actor, fund, e-mail; the fresh link's token appears nowhere", async () => {
    const { token: first } = await fundIIHolder();
    const request = accessRequestByEmail(fundII.email, "fund-ii")!;

    const revoke = await inRequest(() => callRouteWith(fundAccessAction as never, adminForm({ intent: "revoke-fund-access", requestId: request.id })));
    expect(revoke.result).toMatchObject({ init: { status: 200 } });
    expectEvent("fund.access_revoked", revoke.ctx, { actorId: admin.id, fundId: "fund-ii", email: fundII.email });

    const resend = await inRequest(() => callRouteWith(fundAccessAction as never, adminForm({ intent: "resend-fund-access-link", requestId: request.id })));
    expect(resend.result).toMatchObject({ init: { status: 200 } });
    expectEvent("fund.link_resent", resend.ctx, { actorId: admin.id, fundId: "fund-ii", email: fundII.email, wasRevoked: true });

    const texts = await sentTextTo(fundII.email);
    const second = tokenFromMailText(texts.at(-1) ?? "");
    expect(second).not.toBe(first);
    expectNoSecrets(first, second, cookieValue(adminCookie));
  });

  it("fund.token_validated, fund.access_revoked and fund.link_resent carry the request id of the request", async () => {
    const { token } = await fundIIHolder();
    const request = accessRequestByEmail(fundII.email, "fund-ii")!;
    const validated = await inRequest(() => validateToken(token, { clientAddress: IP }));
    const revoked = await inRequest(() => callRouteWith(fundAccessAction as never, adminForm({ intent: "revoke-fund-access", requestId: request.id })));
    const resent = await inRequest(() => callRouteWith(fundAccessAction as never, adminForm({ intent: "resend-fund-access-link", requestId: request.id })));
    expect(eventsNamed("fund.token_validated")[0]?.requestId).toBe(validated.ctx.requestId);
    expect(eventsNamed("fund.access_revoked")[0]?.requestId).toBe(revoked.ctx.requestId);
    expect(eventsNamed("fund.link_resent")[0]?.requestId).toBe(resent.ctx.requestId);
  });
});

describe("rate limits", () => {
  it("request.rate_limited (warn) once the reset limit (5 an hour per address) is used up: bucket and Retry-After", async () => {
    // As the enhanced form posts it: the refusal is the 429 itself (a plain post is a 303 back with the message).
    const ask = () =>
      inRequest(() => callRoute(forgotPasswordAction, formRequest("/lp/forgot-password", { email: "someone@example.test", _enhanced: "1" })));
    for (let i = 0; i < 5; i++) expect((await ask()).result).toMatchObject({ init: { status: 200 } });
    expect(eventsNamed("request.rate_limited")).toEqual([]);

    const limited = await ask();
    expect(limited.result).toMatchObject({ init: { status: 429 } });
    const line = expectEvent("request.rate_limited", limited.ctx, { bucket: "reset" }, "warn");
    expect(line.retryAfterSeconds).toBeGreaterThan(0);
    expect(line.retryAfterSeconds).toBeLessThanOrEqual(3600);
    // The refused attempt did not reach the domain function.
    expect(eventsNamed("auth.password_reset_requested")).toHaveLength(5);
  });

  it("a client at another address is not limited and logs no rate_limited line", async () => {
    for (let i = 0; i < 6; i++) {
      await inRequest(() => callRoute(forgotPasswordAction, formRequest("/lp/forgot-password", { email: "someone@example.test" }), `192.0.2.${i + 1}`));
    }
    expect(eventsNamed("request.rate_limited")).toEqual([]);
  });
});

describe("all the lines of this file", () => {
  it("every line is one JSON object with time, level and msg (checked after a mixed flow)", async () => {
    await inRequest(() => signIn("lp@fund.example", FIXTURE_PASSWORD));
    await inRequest(() => signIn("lp@fund.example", "wrong-password-here"));
    await inRequest(() => registerFund({ name: "Ada", email: "ada@example.test", fundId: "fund-i" }, IP));
    expect(raw.length).toBeGreaterThanOrEqual(3);
    for (const text of raw) {
      expect(text).not.toMatch(/\n/);
      const line = JSON.parse(text) as Line;
      expect(Object.keys(line).slice(0, 3)).toEqual(["time", "level", "msg"]);
      expect(["info", "warn", "error"]).toContain(line.level);
    }
  });
});

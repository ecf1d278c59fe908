import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents, recoveryCodes, sessions, userTwoFactor } from "../../db/schema";
import type { FormOutcome } from "~/components/portal/outcome";
import { twoFactorCopy, twoFactorMessages } from "~/content/two-factor";
import { countSessions } from "~/modules/auth/session.server";
import { advanceClockForTests, now, resetClockForTests } from "~/modules/config/clock.server";
import { RATE_LIMITS, resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { requestPasswordReset, setUserStatus, type LpUser } from "~/modules/lp-users/lp-users.server";
import { flushMailer } from "~/modules/mail/mail.server";
import type { AccountAnswer } from "~/modules/auth/account-form";
import { totpCode } from "~/modules/two-factor/totp.server";
import { beginEnrolment, confirmEnrolment, hasTwoFactor, resealSecrets, resetTwoFactor } from "~/modules/two-factor/two-factor.server";
import { action as adminAccountAction, loader as adminAccountLoader } from "~/routes/admin/account";
import { loader as adminLayoutLoader } from "~/routes/admin/layout";
import { action as adminLoginAction } from "~/routes/admin/login";
import { action as loginAction } from "~/routes/api/auth/login";
import { loader as userLoader } from "~/routes/api/auth/user";
import { loader as usersByStatusLoader } from "~/routes/api/auth/users-by-status";
import { loader as documentFileLoader } from "~/routes/api/document-file";
import { loader as fundDocumentFileLoader } from "~/routes/api/fund-documents/file";
import { readFlash } from "~/modules/toast/flash.server";
import { action as codeStepAction, loader as codeStepLoader } from "~/routes/auth/two-factor";
import { action as lpAccountAction, loader as lpAccountLoader } from "~/routes/lp/account";
import { loader as lpLayoutLoader } from "~/routes/lp/layout";
import { action as lpLoginAction, loader as lpLoginLoader } from "~/routes/lp/login";
import { action as resetPasswordAction } from "~/routes/lp/reset-password";
import { callRoute } from "../helpers/http";
import { legacyRecoveryHash, sealV1 } from "../helpers/legacy-two-factor";
import {
  FIXTURE_PASSWORD,
  ORIGIN,
  apiRequest,
  callRouteWith,
  clearAccountTables,
  cookiePair,
  insertAdmin,
  insertUser,
  mailsTo,
  sessionCookieFor,
} from "../helpers/users";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const STEP = 30 * SECOND;
const CODE_REQUIRED = { error: "Two-factor code required", twoFactorRequired: true };
const INVALID_CODE = { error: "Invalid two-factor code", fields: { code: ["Invalid two-factor code"] } };
const TOO_MANY = "Too many two-factor attempts. Please try again later.";
const NEW_PASSWORD = "a brand new passphrase";
const RESET_LINK = /http:\/\/localhost:3000\/lp\/reset-password\?token=([A-Za-z0-9_-]+)/;

type Enrolled = { user: LpUser; secret: string; codes: string[] };

/** Turn two-factor on the way the account page does (a session's pending secret confirmed by its current code). */
async function enrol(user: LpUser, sessionId: string = randomUUID()): Promise<Enrolled> {
  const { secret } = await beginEnrolment(user, sessionId);
  const codes = await confirmEnrolment(user, totpCode(secret, now().getTime()), "192.0.2.200", sessionId);
  return { user, secret, codes };
}

async function investorWith2fa(): Promise<Enrolled> {
  return enrol(await insertUser({ status: "approved" }));
}

/** The code of the next 30-second step (the clock moves on first: a step is accepted only once). */
function nextCode(secret: string): string {
  advanceClockForTests(STEP);
  return totpCode(secret, now().getTime());
}

/** A 6-digit code that is none of the codes accepted around now. */
function wrongCode(secret: string): string {
  const at = now().getTime();
  const near = new Set([-2, -1, 0, 1, 2].map((k) => totpCode(secret, at + k * STEP)));
  for (let n = 123456; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!near.has(candidate)) return candidate;
  }
}

const jsonSignIn = (body: Record<string, unknown>, { cookie, clientAddress }: { cookie?: string; clientAddress?: string } = {}) =>
  callRouteWith(loginAction, apiRequest("POST", "/api/auth/login", { cookie, json: body }), clientAddress ? { clientAddress } : {});

const signInWith = (user: LpUser, code?: string, password = FIXTURE_PASSWORD) =>
  jsonSignIn(code === undefined ? { email: user.email, password } : { email: user.email, password, code });

/** A form post as a browser sends it without JavaScript, with an optional Cookie. */
function formPost(path: string, fields: Record<string, string>, cookie?: string): Request {
  return new Request(ORIGIN + path, {
    method: "POST",
    headers: cookie ? { Cookie: cookie } : {},
    body: new URLSearchParams(fields),
  });
}

const getWith = (path: string, cookie?: string) => new Request(ORIGIN + path, { headers: cookie ? { Cookie: cookie } : {} });

/** The `lr_session=…` pair of a response's Set-Cookie headers, or null. */
function sessionCookieOf(response: Response): string | null {
  const found = response.headers.getSetCookie().find((c) => c.startsWith("lr_session="));
  return found ? cookiePair(found) : null;
}

async function whoAmI(cookie: string): Promise<number> {
  return (await callRouteWith(userLoader, apiRequest("GET", "/api/auth/user", { cookie }))).status;
}

/** The Response a loader threw (a redirect); fails when it returned. */
async function thrown(run: Promise<unknown>): Promise<Response> {
  const outcome = await run.then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(Response);
  return outcome as Response;
}

/** A page action's Response answer (a redirect); fails when it answered data. */
function responseOf(answer: unknown): Response {
  expect(answer).toBeInstanceOf(Response);
  return answer as Response;
}

/** A page action's `data(...)` answer: its data and status (200 when none was set). */
function dataOf<T>(result: unknown): { data: T; status: number; headers: Headers } {
  expect(result).not.toBeInstanceOf(Response);
  expect(result).toMatchObject({ type: "DataWithResponseInit" });
  const answer = result as DataWithResponseInit<T>;
  return { data: answer.data, status: answer.init?.status ?? 200, headers: new Headers(answer.init?.headers) };
}

function auditRows(event: string, userId: string) {
  return getDb()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.event, event), eq(auditEvents.targetId, userId)))
    .all()
    .map((row) => ({ ...row, details: JSON.parse(row.details) as Record<string, unknown> }));
}

const sessionRows = (userId: string) => getDb().select().from(sessions).where(eq(sessions.userId, userId)).all();

/** The password step of a form sign-in; returns the answer and the challenge cookie. */
async function passwordStep(user: LpUser, portal: "lp" | "admin" = "lp", clientAddress?: string) {
  const action = portal === "lp" ? lpLoginAction : adminLoginAction;
  const response = responseOf(
    await callRoute<unknown>(action, formPost(`/${portal}/login`, { email: user.email, password: FIXTURE_PASSWORD }), clientAddress),
  );
  return { response, cookie: sessionCookieOf(response) };
}

const codeStep = (cookie: string, code: string, clientAddress?: string) =>
  callRoute<unknown>(codeStepAction, formPost("/login/two-factor", { code }, cookie), clientAddress);
/** The code step as the enhanced form posts it (`_enhanced=1`): answered with data and its status, not a redirect. */
const codeStepJs = (cookie: string, code: string, clientAddress?: string) =>
  callRoute<unknown>(codeStepAction, formPost("/login/two-factor", { code, _enhanced: "1" }, cookie), clientAddress);

beforeEach(() => {
  clearAccountTables();
  resetRateLimitsForTests();
  resetClockForTests();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  resetClockForTests();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

describe("JSON sign-in (POST /api/auth/login)", () => {
  it("an account without two-factor signs in with the password alone, as before", async () => {
    const user = await insertUser({ status: "approved" });
    const response = await signInWith(user);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ isAdmin: false, email: user.email });
    const cookie = sessionCookieOf(response);
    expect(cookie).toMatch(/^lr_session=/);
    expect(await whoAmI(cookie!)).toBe(200);
  });

  it("with two-factor and no code: 401 'Two-factor code required', no cookie and no session row", async () => {
    const { user } = await investorWith2fa();
    for (const body of [
      { email: user.email, password: FIXTURE_PASSWORD },
      { email: user.email, password: FIXTURE_PASSWORD, code: "" },
    ]) {
      const response = await jsonSignIn(body);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(CODE_REQUIRED);
      expect(response.headers.get("Set-Cookie")).toBeNull();
    }
    expect(sessionRows(user.id)).toHaveLength(0);
    expect(auditRows("auth.sign_in", user.id)).toHaveLength(0);
  });

  it("a wrong password is still the generic 401, whatever the code", async () => {
    const { user, secret } = await investorWith2fa();
    const response = await signInWith(user, nextCode(secret), "not the right password");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Invalid email or password" });
    expect(sessionRows(user.id)).toHaveLength(0);
  });

  it("with the right TOTP code: 200 and a cookie that works; the same code replayed is 401", async () => {
    const { user, secret } = await investorWith2fa();
    const code = nextCode(secret);
    const response = await signInWith(user, code);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ email: user.email, isAdmin: false });
    const cookie = sessionCookieOf(response)!;
    expect(await whoAmI(cookie)).toBe(200);
    expect(auditRows("auth.sign_in", user.id).at(-1)?.details).toMatchObject({ secondFactor: "totp" });

    const replay = await signInWith(user, code);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual(INVALID_CODE);
    expect(replay.headers.get("Set-Cookie")).toBeNull();
    expect(countSessions(user.id)).toBe(1);
    // The code with spaces is the same code, and still used up.
    const spaced = await signInWith(user, `${code.slice(0, 3)} ${code.slice(3)}`);
    expect(spaced.status).toBe(401);
  });

  it("an older code than the last accepted one is refused even inside the drift window", async () => {
    const { user, secret } = await investorWith2fa();
    const older = nextCode(secret);
    const newer = nextCode(secret);
    expect((await signInWith(user, newer)).status).toBe(200);
    expect((await signInWith(user, older)).status).toBe(401);
  });

  it("a wrong code: 401 'Invalid two-factor code', no session, and an auth.two_factor_failed row", async () => {
    const { user, secret } = await investorWith2fa();
    const response = await signInWith(user, wrongCode(secret));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(INVALID_CODE);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(sessionRows(user.id)).toHaveLength(0);
    const failed = auditRows("auth.two_factor_failed", user.id);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.details).toMatchObject({ userId: user.id, email: user.email, reason: "wrong code" });
    expect(JSON.stringify(failed)).not.toContain(secret);
  });

  it("a recovery code signs in once (any case, with or without the hyphen); used again it is 401; the account is mailed", async () => {
    const { user, codes } = await investorWith2fa();
    expect(codes).toHaveLength(10);
    const [first, second] = codes as [string, string];
    const response = await signInWith(user, first.toUpperCase());
    expect(response.status).toBe(200);
    expect(await whoAmI(sessionCookieOf(response)!)).toBe(200);
    expect(auditRows("auth.sign_in", user.id).at(-1)?.details).toMatchObject({ secondFactor: "recovery" });
    expect(auditRows("auth.recovery_code_used", user.id)[0]?.details).toMatchObject({ left: 9 });

    const again = await signInWith(user, first);
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual(INVALID_CODE);

    expect((await signInWith(user, second.replace("-", ""))).status).toBe(200);

    const notices = mailsTo(user.email).filter((m) => m.text.includes("A recovery code of your account was used"));
    expect(notices).toHaveLength(2);
    expect(notices[0]?.subject).toBe("Security notice for your Lumen Ridge Ventures account");
    expect(notices[0]?.text).toContain("9 codes are left");
    expect(notices[1]?.text).toContain("8 codes are left");
    expect(notices.map((m) => m.text).join("\n")).not.toContain(first);
    expect(getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).all()).toHaveLength(10);
  });
});

describe("form sign-in (/lp/login, /admin/login) and the code step", () => {
  it("an investor without two-factor goes to the dashboard with a session, as before", async () => {
    const investor = await insertUser({ status: "approved" });
    const { response, cookie } = await passwordStep(investor);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/lp/dashboard");
    expect(response.headers.getSetCookie().some((c) => c.startsWith("lr_flash="))).toBe(true);
    expect(await whoAmI(cookie!)).toBe(200);
  });

  it("with two-factor the password only opens the code step: a 5-minute challenge that nothing else accepts", async () => {
    const { user } = await investorWith2fa();
    const { response, cookie } = await passwordStep(user);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/login/two-factor");
    // No 'Login successful' flash yet.
    expect(response.headers.getSetCookie().some((c) => c.startsWith("lr_flash="))).toBe(false);
    expect(cookie).toMatch(/^lr_session=/);
    const rows = sessionRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.stage).toBe("two_factor");
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(5 * MINUTE);
    expect(auditRows("auth.sign_in", user.id)).toHaveLength(0);

    expect(await whoAmI(cookie!)).toBe(401);
    const lpGate = await thrown(callRoute(lpLayoutLoader, getWith("/lp/dashboard", cookie!)));
    expect(lpGate.status).toBe(302);
    expect(lpGate.headers.get("Location")).toBe("/lp/login");
    const accountGate = await thrown(callRoute(lpAccountLoader, getWith("/lp/account", cookie!)));
    expect(accountGate.headers.get("Location")).toBe("/lp/login");
    const id = randomUUID();
    for (const path of [`/api/documents/${id}/view`, `/api/documents/${id}/download`]) {
      const file = await callRouteWith(documentFileLoader, getWith(path, cookie!), { params: { id } });
      expect(file.status, path).toBe(401);
    }
    // The login page is shown again (not skipped), and the code step is open.
    expect(await callRoute(lpLoginLoader, getWith("/lp/login", cookie!))).toBeNull();
    expect(await callRoute(codeStepLoader, getWith("/login/two-factor", cookie!))).toEqual({ live: true });
    expect(await callRoute(codeStepLoader, getWith("/login/two-factor"))).toEqual({ live: false });
  });

  it("an admin's challenge gets nothing from the admin workspace or the admin JSON and file endpoints", async () => {
    const { user: admin } = await enrol(await insertAdmin({ twoFactor: false }));
    const { response, cookie } = await passwordStep(admin, "admin");
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/login/two-factor");
    expect(await whoAmI(cookie!)).toBe(401);
    const gate = await thrown(callRoute(adminLayoutLoader, getWith("/admin/dashboard", cookie!)));
    expect(gate.status).toBe(302);
    expect(gate.headers.get("Location")).toBe("/admin/login");
    const accountGate = await thrown(callRoute(adminAccountLoader, getWith("/admin/account", cookie!)));
    expect(accountGate.headers.get("Location")).toBe("/admin/login");
    const list = await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie: cookie! }));
    expect(list.status).toBe(401);
    expect(await list.json()).toEqual({ error: "Authentication required" });
    const id = randomUUID();
    expect((await callRouteWith(documentFileLoader, getWith(`/api/documents/${id}/view`, cookie!), { params: { id } })).status).toBe(401);
    expect((await callRouteWith(fundDocumentFileLoader, getWith(`/api/fund-documents/view/${id}`, cookie!), { params: { id } })).status).toBe(
      401,
    );
  });

  it("the code step with the right code: the dashboard, a new session token, the challenge row gone", async () => {
    const { user, secret } = await investorWith2fa();
    const { cookie: challenge } = await passwordStep(user);
    const challengeRow = sessionRows(user.id)[0]!;

    const response = responseOf(await codeStep(challenge!, nextCode(secret)));
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/lp/dashboard");
    expect(response.headers.getSetCookie().some((c) => c.startsWith("lr_flash="))).toBe(true);
    const full = sessionCookieOf(response)!;
    expect(full).toMatch(/^lr_session=/);
    expect(full).not.toBe(challenge);

    const rows = sessionRows(user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.stage).toBe("full");
    expect(rows[0]?.tokenHash).not.toBe(challengeRow.tokenHash);
    expect(await whoAmI(full)).toBe(200);
    expect(await callRoute(lpLayoutLoader, getWith("/lp/dashboard", full))).toMatchObject({ user: { id: user.id } });
    expect(await whoAmI(challenge!)).toBe(401);
    expect(auditRows("auth.sign_in", user.id)).toHaveLength(1);
    expect(auditRows("auth.sign_in", user.id)[0]?.details).toMatchObject({ secondFactor: "totp" });

    // The used challenge cannot be spent twice.
    expect(dataOf<FormOutcome>(await codeStepJs(challenge!, nextCode(secret))).status).toBe(401);
  });

  it("an admin's code step leads to the admin dashboard, and the new cookie opens the admin endpoints", async () => {
    const { user: admin, secret } = await enrol(await insertAdmin({ twoFactor: false }));
    const { cookie: challenge } = await passwordStep(admin, "admin");
    const response = responseOf(await codeStep(challenge!, nextCode(secret)));
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/admin/dashboard");
    const full = sessionCookieOf(response)!;
    expect(full).not.toBe(challenge);
    expect(await callRoute(adminLayoutLoader, getWith("/admin/dashboard", full))).toMatchObject({ user: { id: admin.id } });
    expect((await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie: full }))).status).toBe(200);
  });

  it("a wrong code is 401 with the message under the field; the challenge stays usable", async () => {
    const { user, secret } = await investorWith2fa();
    const { cookie: challenge } = await passwordStep(user);
    const wrong = dataOf<FormOutcome>(await codeStepJs(challenge!, wrongCode(secret)));
    expect(wrong.status).toBe(401);
    expect(wrong.data.status).toBe("error");
    expect(wrong.data.result.error).toMatchObject({ code: [twoFactorMessages.invalidCode] });
    expect(sessionRows(user.id).map((r) => r.stage)).toEqual(["two_factor"]);
    expect(auditRows("auth.two_factor_failed", user.id)).toHaveLength(1);

    const right = responseOf(await codeStep(challenge!, nextCode(secret)));
    expect(right.status).toBe(303);
    expect(await whoAmI(sessionCookieOf(right)!)).toBe(200);
  });

  it("a recovery code works at the code step too", async () => {
    const { user, codes } = await investorWith2fa();
    const { cookie: challenge } = await passwordStep(user);
    const response = responseOf(await codeStep(challenge!, codes[3]!));
    expect(response.status).toBe(303);
    expect(await whoAmI(sessionCookieOf(response)!)).toBe(200);
  });

  it("the challenge lasts 5 minutes: at 4:59 it still works, at 5:00 it is refused", async () => {
    const { user, secret } = await investorWith2fa();
    const early = (await passwordStep(user)).cookie!;
    advanceClockForTests(5 * MINUTE - SECOND);
    const ok = responseOf(await codeStep(early, totpCode(secret, now().getTime())));
    expect(ok.status).toBe(303);

    const late = (await passwordStep(user)).cookie!;
    advanceClockForTests(5 * MINUTE);
    const refused = dataOf<FormOutcome>(await codeStepJs(late, totpCode(secret, now().getTime())));
    expect(refused.status).toBe(401);
    expect(refused.data.result.error).toMatchObject({ "": [twoFactorCopy.code.expired] });
    expect(await callRoute(codeStepLoader, getWith("/login/two-factor", late))).toEqual({ live: false });
    expect(sessionRows(user.id).filter((r) => r.stage === "two_factor")).toHaveLength(0);
  });

  it("a challenge of an account rejected in the meantime is refused", async () => {
    const admin = await insertAdmin({ twoFactor: false });
    const { user, secret } = await investorWith2fa();
    const { cookie: challenge } = await passwordStep(user);
    setUserStatus(admin, user.id, "rejected");
    const refused = dataOf<FormOutcome>(await codeStepJs(challenge!, nextCode(secret)));
    expect(refused.status).toBe(401);
    expect(sessionRows(user.id)).toHaveLength(0);
  });
});

describe("password reset", () => {
  /** Ask for a reset and return the token from the e-mail (read before the mailer clears it). */
  function requestLink(user: LpUser): string {
    requestPasswordReset({ email: user.email });
    const token = mailsTo(user.email).at(-1)?.text.match(RESET_LINK)?.[1];
    if (!token) throw new Error("no reset link in the e-mail");
    return token;
  }

  it("never signs in: no session cookie, a redirect to /lp/login; afterwards the sign-in still needs the code", async () => {
    const { user, secret } = await investorWith2fa();
    const response = responseOf(
      await callRoute(resetPasswordAction, formPost("/lp/reset-password", { token: requestLink(user), password: NEW_PASSWORD })),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/lp/login");
    expect(sessionCookieOf(response)).toBeNull();
    expect(countSessions(user.id)).toBe(0);
    expect(hasTwoFactor(user.id)).toBe(true);

    const withoutCode = await signInWith(user, undefined, NEW_PASSWORD);
    expect(withoutCode.status).toBe(401);
    expect(await withoutCode.json()).toEqual(CODE_REQUIRED);
    const form = responseOf(await callRoute(lpLoginAction, formPost("/lp/login", { email: user.email, password: NEW_PASSWORD })));
    expect(form.headers.get("Location")).toBe("/login/two-factor");
    const withCode = await signInWith(user, nextCode(secret), NEW_PASSWORD);
    expect(withCode.status).toBe(200);
  });

  it("with JavaScript the answer is data pointing at /lp/login, with no cookie at all", async () => {
    const { user } = await investorWith2fa();
    const answer = dataOf<FormOutcome>(
      await callRoute(
        resetPasswordAction,
        formPost("/lp/reset-password", { token: requestLink(user), password: NEW_PASSWORD, _enhanced: "1" }),
      ),
    );
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ status: "success", redirectTo: "/lp/login" });
    expect(answer.headers.get("Set-Cookie")).toBeNull();
    expect(countSessions(user.id)).toBe(0);
  });
});

describe("limits", () => {
  const LIMIT = RATE_LIMITS.twoFactorAccount.points;

  it(`after ${LIMIT} wrong codes for one account even the right code is 429 with Retry-After (JSON and the code step)`, async () => {
    expect(LIMIT).toBe(10);
    const { user, secret } = await investorWith2fa();
    const { cookie: challenge } = await passwordStep(user);
    for (let i = 0; i < LIMIT; i++) {
      const response = await signInWith(user, wrongCode(secret));
      expect(response.status, `wrong code ${i + 1}`).toBe(401);
    }
    const right = await signInWith(user, nextCode(secret));
    expect(right.status).toBe(429);
    expect(await right.json()).toEqual({ error: TOO_MANY });
    expect(Number(right.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(right.headers.get("Set-Cookie")).toBeNull();

    const step = dataOf<FormOutcome>(await codeStepJs(challenge!, nextCode(secret), "198.51.100.9"));
    expect(step.status).toBe(429);
    expect(Number(step.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(sessionRows(user.id).map((r) => r.stage)).toEqual(["two_factor"]);

    // Another account is not held.
    const other = await investorWith2fa();
    expect((await signInWith(other.user, nextCode(other.secret))).status).toBe(200);
    const limited = getDb().select().from(auditEvents).where(eq(auditEvents.event, "request.rate_limited")).all();
    expect(limited.some((r) => r.details.includes("twoFactorAccount"))).toBe(true);
  });

  it(`${LIMIT - 1} wrong codes and then the right one signs in; the right code gives back its own place only (decision 030)`, async () => {
    const { user, secret } = await investorWith2fa();
    const { cookie: challenge } = await passwordStep(user);
    for (let i = 0; i < LIMIT - 1; i++) expect(dataOf<FormOutcome>(await codeStepJs(challenge!, wrongCode(secret))).status).toBe(401);
    expect(responseOf(await codeStep(challenge!, nextCode(secret))).status).toBe(303);
    // The wrong codes still count: one more has a place, and then the hour is used up, right code or not.
    const { cookie: again } = await passwordStep(user);
    expect(dataOf<FormOutcome>(await codeStepJs(again!, wrongCode(secret))).status).toBe(401);
    expect(dataOf<FormOutcome>(await codeStepJs(again!, nextCode(secret))).status).toBe(429);
    expect(auditRows("auth.two_factor_failed", user.id)).toHaveLength(LIMIT);
  });

  it(`an address gets ${RATE_LIMITS.twoFactorAddress.points} code attempts; other addresses go on`, async () => {
    const points = RATE_LIMITS.twoFactorAddress.points;
    const accounts = await Promise.all(Array.from({ length: Math.ceil(points / (LIMIT - 1)) + 1 }, () => investorWith2fa()));
    const challenges: string[] = [];
    for (const { user } of accounts) challenges.push((await passwordStep(user, "lp", "203.0.113.1")).cookie!);
    const attacker = "203.0.113.66";
    let attempts = 0;
    for (const [i, { secret }] of accounts.entries()) {
      for (let n = 0; n < LIMIT - 1 && attempts < points; n++, attempts++) {
        expect(dataOf<FormOutcome>(await codeStepJs(challenges[i]!, wrongCode(secret), attacker)).status).toBe(401);
      }
    }
    const last = accounts.length - 1;
    const { secret } = accounts[last]!;
    const refused = dataOf<FormOutcome>(await codeStepJs(challenges[last]!, nextCode(secret), attacker));
    expect(refused.status).toBe(429);
    const elsewhere = responseOf(await codeStep(challenges[last]!, nextCode(secret), "203.0.113.2"));
    expect(elsewhere.status).toBe(303);
  });
});

describe("the account page (/lp/account, /admin/account)", () => {
  async function accountPost(portal: "lp" | "admin", cookie: string, fields: Record<string, string>) {
    const action = portal === "lp" ? lpAccountAction : adminAccountAction;
    // As data with its status (`_enhanced=1`); the page's own plain posts get the same answer through a redirect's flash (below).
    return dataOf<AccountAnswer>(await callRoute(action, formPost(`/${portal}/account`, { ...fields, _enhanced: "1" }, cookie)));
  }

  async function enableThroughPage(portal: "lp" | "admin", user: LpUser) {
    const cookie = await sessionCookieFor(user);
    const loader = portal === "lp" ? lpAccountLoader : adminAccountLoader;
    const page = await callRoute(loader, getWith(`/${portal}/account`, cookie));
    expect(page.twoFactor).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    const secret = page.enrolment!.secret;
    expect(page.enrolment!.uri).toMatch(/^otpauth:\/\/totp\//);
    const answer = await accountPost(portal, cookie, { intent: "enable-2fa", code: totpCode(secret, now().getTime()) });
    return { cookie, secret, answer };
  }

  it("enable-2fa with the code of the loader's secret: 10 codes, audited, mailed; then the JSON sign-in needs a code", async () => {
    const user = await insertUser({ status: "approved" });
    const { cookie, answer } = await enableThroughPage("lp", user);
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ intent: "enable-2fa", status: "success", message: twoFactorCopy.account.enabled });
    expect(answer.data.codes).toHaveLength(10);
    expect(new Set(answer.data.codes).size).toBe(10);
    for (const code of answer.data.codes!) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect(auditRows("auth.two_factor_enabled", user.id)).toHaveLength(1);
    expect(mailsTo(user.email).some((m) => m.text.includes("Two-factor authentication was turned on"))).toBe(true);

    // The current session goes on; the page now shows it on.
    expect(await whoAmI(cookie)).toBe(200);
    const page = await callRoute(lpAccountLoader, getWith("/lp/account", cookie));
    expect(page).toMatchObject({ twoFactor: { enabled: true, recoveryCodesLeft: 10 }, enrolment: null });

    const response = await signInWith(user);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(CODE_REQUIRED);
  });

  it("enable-2fa with a wrong code is 401 and two-factor stays off", async () => {
    const user = await insertUser({ status: "approved" });
    const cookie = await sessionCookieFor(user);
    const page = await callRoute(lpAccountLoader, getWith("/lp/account", cookie));
    const answer = await accountPost("lp", cookie, { intent: "enable-2fa", code: wrongCode(page.enrolment!.secret) });
    expect(answer.status).toBe(401);
    expect(answer.data).toMatchObject({ intent: "enable-2fa", status: "error", fieldErrors: { code: [twoFactorMessages.invalidCode] } });
    expect(answer.data.codes).toBeUndefined();
    expect(hasTwoFactor(user.id)).toBe(false);
    expect((await signInWith(user)).status).toBe(200);
  });

  it("without JavaScript (a plain post): a refusal goes back to the page (303) with the message under the field; new codes are answered in place, never in a cookie", async () => {
    const user = await insertUser({ status: "approved" });
    const cookie = await sessionCookieFor(user);
    const page = await callRoute(lpAccountLoader, getWith("/lp/account", cookie));
    const refused = responseOf(await callRoute(lpAccountAction, formPost("/lp/account", { intent: "enable-2fa", code: wrongCode(page.enrolment!.secret) }, cookie)));
    expect(refused.status).toBe(303);
    expect(refused.headers.get("Location")).toBe("/lp/account");
    const flashCookie = refused.headers.getSetCookie().find((c) => c.startsWith("lr_flash="))!.split(";")[0]!;
    const { flash } = await readFlash(getWith("/lp/account", flashCookie));
    expect(flash.form).toEqual({
      formId: "enable-2fa",
      status: "error",
      message: twoFactorMessages.invalidCode,
      fieldErrors: { code: [twoFactorMessages.invalidCode] },
    });
    expect(hasTwoFactor(user.id)).toBe(false);

    const enabled = dataOf<AccountAnswer>(
      await callRoute(lpAccountAction, formPost("/lp/account", { intent: "enable-2fa", code: totpCode(page.enrolment!.secret, now().getTime()) }, cookie)),
    );
    expect(enabled.status).toBe(200);
    expect(enabled.data.codes).toHaveLength(10);
    expect(enabled.headers.get("Set-Cookie")).toBeNull();
  });

  it("disable-2fa with a right code turns it off for an investor (audited, mailed); the password alone signs in again", async () => {
    const user = await insertUser({ status: "approved" });
    const { cookie, secret } = await enableThroughPage("lp", user);
    const answer = await accountPost("lp", cookie, { intent: "disable-2fa", code: nextCode(secret) });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ intent: "disable-2fa", status: "success", message: twoFactorCopy.account.disabled });
    expect(hasTwoFactor(user.id)).toBe(false);
    expect(getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).all()).toHaveLength(0);
    expect(auditRows("auth.two_factor_disabled", user.id)).toHaveLength(1);
    expect(mailsTo(user.email).some((m) => m.text.includes("Two-factor authentication was turned off"))).toBe(true);
    expect((await signInWith(user)).status).toBe(200);
  });

  it("disable-2fa with a wrong code is 401 and it stays on", async () => {
    const user = await insertUser({ status: "approved" });
    const { cookie, secret } = await enableThroughPage("lp", user);
    const answer = await accountPost("lp", cookie, { intent: "disable-2fa", code: wrongCode(secret) });
    expect(answer.status).toBe(401);
    expect(hasTwoFactor(user.id)).toBe(true);
  });

  it("an admin cannot turn it off (/admin/account): 403, and two-factor stays on", async () => {
    const admin = await insertAdmin({ twoFactor: false });
    const { cookie, secret, answer: enabled } = await enableThroughPage("admin", admin);
    expect(enabled.status).toBe(200);
    expect(enabled.data.codes).toHaveLength(10);
    const answer = await accountPost("admin", cookie, { intent: "disable-2fa", code: nextCode(secret) });
    expect(answer.status).toBe(403);
    expect(answer.data).toMatchObject({ intent: "disable-2fa", status: "error", message: twoFactorMessages.adminsKeepIt });
    expect(hasTwoFactor(admin.id)).toBe(true);
    expect(auditRows("auth.two_factor_disabled", admin.id)).toHaveLength(0);
    const response = await signInWith(admin);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(CODE_REQUIRED);
  });

  it("regenerate-codes with a current TOTP code replaces every code: old ones fail, new ones work", async () => {
    const user = await insertUser({ status: "approved" });
    const { cookie, secret, answer: enabled } = await enableThroughPage("lp", user);
    const old = enabled.data.codes!;

    // A recovery code does not make new recovery codes.
    const byRecovery = await accountPost("lp", cookie, { intent: "regenerate-codes", code: old[0]! });
    expect(byRecovery.status).toBe(401);

    const answer = await accountPost("lp", cookie, { intent: "regenerate-codes", code: nextCode(secret) });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({ intent: "regenerate-codes", status: "success", message: twoFactorCopy.account.regenerated });
    const fresh = answer.data.codes!;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => old.includes(c))).toEqual([]);
    expect(auditRows("auth.recovery_codes_regenerated", user.id)).toHaveLength(1);
    expect(mailsTo(user.email).some((m) => m.text.includes("New recovery codes were made"))).toBe(true);

    const withOld = await signInWith(user, old[1]!);
    expect(withOld.status).toBe(401);
    expect(await withOld.json()).toEqual(INVALID_CODE);
    expect((await signInWith(user, fresh[0]!)).status).toBe(200);
  });

  it("a pending secret belongs to the session that started it: another session of the account neither sees it nor can confirm it", async () => {
    const user = await insertUser({ status: "approved" });
    const laptop = await sessionCookieFor(user);
    const stolen = await sessionCookieFor(user);
    const laptopPage = await callRoute(lpAccountLoader, getWith("/lp/account", laptop));
    const secret = laptopPage.enrolment!.secret;

    // The other session sends the laptop's current code (without opening the page): refused, two-factor stays off.
    const taken = await accountPost("lp", stolen, { intent: "enable-2fa", code: totpCode(secret, now().getTime()) });
    expect(taken.status).toBe(400);
    expect(taken.data).toMatchObject({ intent: "enable-2fa", status: "error", message: twoFactorMessages.notEnrolling });
    expect(taken.data.codes).toBeUndefined();
    expect(hasTwoFactor(user.id)).toBe(false);

    // Its page shows a secret of its own, never the laptop's (neither as text nor in the QR code's URI).
    const stolenPage = await callRoute(lpAccountLoader, getWith("/lp/account", stolen));
    expect(stolenPage.enrolment!.secret).not.toBe(secret);
    expect(JSON.stringify(stolenPage)).not.toContain(secret);
    // And the laptop, asking again, is not shown the other session's.
    const again = await callRoute(lpAccountLoader, getWith("/lp/account", laptop));
    expect(JSON.stringify(again)).not.toContain(stolenPage.enrolment!.secret);

    // The laptop turns it on with the secret it is shown now; the other session ends.
    const answer = await accountPost("lp", laptop, { intent: "enable-2fa", code: totpCode(again.enrolment!.secret, now().getTime()) });
    expect(answer.status).toBe(200);
    expect(await whoAmI(laptop)).toBe(200);
    expect(await whoAmI(stolen)).toBe(401);
  });

  it("turning two-factor on ends every other session of the account (investor), and keeps this one", async () => {
    const user = await insertUser({ status: "approved" });
    const phone = await sessionCookieFor(user);
    const tablet = await sessionCookieFor(user);
    const { cookie, answer } = await enableThroughPage("lp", user);
    expect(answer.status).toBe(200);
    expect(await whoAmI(cookie)).toBe(200);
    expect(await whoAmI(phone)).toBe(401);
    expect(await whoAmI(tablet)).toBe(401);
    expect(countSessions(user.id)).toBe(1);
    expect(auditRows("auth.two_factor_enabled", user.id)[0]?.details).toMatchObject({ otherSessionsEnded: 2 });
  });

  it("an admin turning it on ends the admin's other (set-up-only) sessions, which would otherwise gain the portal", async () => {
    const admin = await insertAdmin({ twoFactor: false });
    const elsewhere = await sessionCookieFor(admin);
    const { cookie, answer } = await enableThroughPage("admin", admin);
    expect(answer.status).toBe(200);
    expect((await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie }))).status).toBe(200);
    expect((await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie: elsewhere }))).status).toBe(401);
    expect(countSessions(admin.id)).toBe(1);
  });

  it("the page and its action are for a full session only", async () => {
    const { user, secret } = await investorWith2fa();
    const { cookie: challenge } = await passwordStep(user);
    const gate = await thrown(callRoute(lpAccountAction, formPost("/lp/account", { intent: "disable-2fa", code: nextCode(secret) }, challenge!)));
    expect(gate.headers.get("Location")).toBe("/lp/login");
    expect(hasTwoFactor(user.id)).toBe(true);
  });
});

describe("two-factor values at rest (sealed secrets bound to their account, keyed recovery codes)", () => {
  const rowOf = (userId: string) => getDb().select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId)).get()!;

  it("a sealed secret copied to another account's row does not open there: no sign-in with the copied secret's codes", async () => {
    const alice = await investorWith2fa();
    const bob = await investorWith2fa();
    getDb().update(userTwoFactor).set({ secretEnc: rowOf(alice.user.id).secretEnc, lastStep: null }).where(eq(userTwoFactor.userId, bob.user.id)).run();
    const outcome = await signInWith(bob.user, nextCode(alice.secret)).then(
      (response) => ({ status: response.status, cookie: sessionCookieOf(response) }),
      (error: unknown) => ({ status: 500, cookie: null, error }),
    );
    // A secret that does not open is the server's error (logged), never a pass: as with a dropped key.
    expect(outcome.status).toBe(500);
    expect(outcome.cookie).toBeNull();
    expect(countSessions(bob.user.id)).toBe(0);
  });

  it("resealSecrets turns secrets sealed before the binding (v1) into v2 and plain SHA-256 recovery codes into keyed ones; they keep working; a second run changes nothing", async () => {
    const { user, secret, codes } = await investorWith2fa();
    const pending = await insertUser({ status: "approved" });
    // As the code before stored them.
    getDb().update(userTwoFactor).set({ secretEnc: sealV1(secret) }).where(eq(userTwoFactor.userId, user.id)).run();
    getDb().insert(userTwoFactor).values({ userId: pending.id, pendingEnc: sealV1("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"), pendingAt: now() }).run();
    getDb().delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).run();
    getDb().insert(recoveryCodes).values(codes.map((code) => ({ userId: user.id, codeHash: legacyRecoveryHash(code) }))).run();
    // Before the reseal they still work.
    expect((await signInWith(user, nextCode(secret))).status).toBe(200);
    expect((await signInWith(user, codes[0]!)).status).toBe(200);

    expect(resealSecrets()).toMatchObject({ total: 2, resealed: 1, pendingDropped: 1, recoveryCodesRehashed: 10, failed: 0 });
    expect(rowOf(user.id).secretEnc).toMatch(/^v2\./);
    expect(rowOf(pending.id).pendingEnc).toBeNull();
    const stored = getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).all();
    for (const row of stored) expect(row.codeHash).toMatch(/^h1\.[0-9a-f]{8}\.[0-9a-f]{64}$/);
    expect(stored.filter((row) => row.usedAt !== null)).toHaveLength(1);

    expect((await signInWith(user, nextCode(secret))).status).toBe(200);
    expect((await signInWith(user, codes[1]!)).status).toBe(200);
    expect((await signInWith(user, codes[0]!)).status).toBe(401);

    const before = JSON.stringify([rowOf(user.id), getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).all()]);
    expect(resealSecrets()).toMatchObject({ resealed: 0, pendingDropped: 0, recoveryCodesRehashed: 0, failed: 0 });
    expect(JSON.stringify([rowOf(user.id), getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).all()])).toBe(before);
  });
});

describe("resetTwoFactor (admin:reset-2fa)", () => {
  it("clears two-factor, ends every session (full and challenge) and starts none; audited and mailed", async () => {
    const { user, secret } = await investorWith2fa();
    const laptop = sessionCookieOf(await signInWith(user, nextCode(secret)))!;
    const phone = sessionCookieOf(await signInWith(user, nextCode(secret)))!;
    const { cookie: challenge } = await passwordStep(user);
    expect(await whoAmI(laptop)).toBe(200);
    expect(countSessions(user.id)).toBe(3);

    expect(resetTwoFactor(user)).toBe(true);
    expect(countSessions(user.id)).toBe(0);
    expect(await whoAmI(laptop)).toBe(401);
    expect(await whoAmI(phone)).toBe(401);
    expect(await callRoute(codeStepLoader, getWith("/login/two-factor", challenge!))).toEqual({ live: false });
    expect(countSessions(user.id)).toBe(0);
    expect(hasTwoFactor(user.id)).toBe(false);
    expect(getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).all()).toHaveLength(0);

    const rows = auditRows("auth.two_factor_reset", user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.details).toMatchObject({ userId: user.id, hadTwoFactor: true });
    expect(mailsTo(user.email).some((m) => m.text.includes("cleared two-factor authentication"))).toBe(true);

    // The password alone signs in again.
    expect((await signInWith(user)).status).toBe(200);
    // A second reset reports that there was nothing to clear.
    expect(resetTwoFactor(user)).toBe(false);
  });
});

describe("admins must set up two-factor before using the admin portal", () => {
  const ENROLMENT_REQUIRED = { error: "Two-factor authentication must be set up before using the admin portal." };

  it("the JSON sign-in of an admin without two-factor answers 200 with a session that opens only the set-up", async () => {
    const admin = await insertAdmin({ twoFactor: false });
    const response = await signInWith(admin);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ isAdmin: true, email: admin.email });
    const cookie = sessionCookieOf(response)!;

    // Admin JSON endpoints: 403 with the message; the investor JSON endpoints too.
    const list = await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie }));
    expect(list.status).toBe(403);
    expect(await list.json()).toEqual(ENROLMENT_REQUIRED);
    const me = await callRouteWith(userLoader, apiRequest("GET", "/api/auth/user", { cookie }));
    expect(me.status).toBe(403);
    expect(await me.json()).toEqual(ENROLMENT_REQUIRED);
    const id = randomUUID();
    expect((await callRouteWith(documentFileLoader, getWith(`/api/documents/${id}/view`, cookie), { params: { id } })).status).toBe(403);

    // Pages: every admin page and the investor portal send it to the set-up; the set-up page opens.
    for (const path of ["/admin/dashboard", "/admin/investors", "/admin/activity"]) {
      const gate = await thrown(callRoute(adminLayoutLoader, getWith(path, cookie)));
      expect(gate.headers.get("Location")).toBe("/admin/account");
    }
    expect((await thrown(callRoute(lpLayoutLoader, getWith("/lp/dashboard", cookie)))).headers.get("Location")).toBe("/admin/account");
    expect(await callRoute(adminLayoutLoader, getWith("/admin/account", cookie))).toMatchObject({ enrolling: true, badges: {} });
    const page = (await callRoute(adminAccountLoader, getWith("/admin/account", cookie))) as { twoFactor: { enabled: boolean }; enrolment: { secret: string } };
    expect(page.twoFactor.enabled).toBe(false);

    // Set up: the same session now opens the portal.
    const enabled = dataOf<AccountAnswer>(
      await callRoute(adminAccountAction, formPost("/admin/account", { intent: "enable-2fa", code: totpCode(page.enrolment.secret, now().getTime()) }, cookie)),
    );
    expect(enabled.status).toBe(200);
    expect(enabled.data.codes).toHaveLength(10);
    expect((await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie }))).status).toBe(200);
    expect(await callRoute(adminLayoutLoader, getWith("/admin/dashboard", cookie))).toMatchObject({ enrolling: false });

    // And the next sign-in needs a code.
    const next = await signInWith(admin);
    expect(next.status).toBe(401);
    expect(await next.json()).toEqual(CODE_REQUIRED);
  });

  it("an admin whose two-factor is reset on the server loses the portal at once, even in a session it had", async () => {
    const admin = await insertAdmin();
    const cookie = await sessionCookieFor(admin);
    expect((await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie }))).status).toBe(200);
    resetTwoFactor(admin);
    // The reset ended the session; a new password-only session is limited to the set-up.
    expect((await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie }))).status).toBe(401);
    const fresh = sessionCookieOf(await signInWith(admin))!;
    const list = await callRouteWith(usersByStatusLoader, apiRequest("GET", "/api/auth/pending-users", { cookie: fresh }));
    expect(list.status).toBe(403);
    expect(await list.json()).toEqual(ENROLMENT_REQUIRED);
  });

  it("an admin without two-factor signing in on /admin/login ends up on the set-up page", async () => {
    const admin = await insertAdmin({ twoFactor: false });
    const response = responseOf(await callRoute<unknown>(adminLoginAction, formPost("/admin/login", { email: admin.email, password: FIXTURE_PASSWORD })));
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/admin/dashboard");
    const gate = await thrown(callRoute(adminLayoutLoader, getWith("/admin/dashboard", sessionCookieOf(response)!)));
    expect(gate.headers.get("Location")).toBe("/admin/account");
  });
});

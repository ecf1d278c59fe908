import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { passwordResets } from "../../db/schema";
import { countSessions } from "~/modules/auth/session.server";
import { advanceClockForTests, resetClockForTests } from "~/modules/config/clock.server";
import { AppError } from "~/modules/http/app-error";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { flushMailer } from "~/modules/mail/mail.server";
import { isResetTokenValid, requestPasswordReset, resetPassword, type LpUser } from "~/modules/lp-users/lp-users.server";
import { action as loginAction } from "~/routes/api/auth/login";
import { loader as userLoader } from "~/routes/api/auth/user";
import { allOutbox } from "../helpers/db";
import {
  FIXTURE_PASSWORD,
  allResets,
  apiRequest,
  callRouteWith,
  insertUser,
  mailsTo,
  sessionCookieFor,
  userById,
} from "../helpers/users";
import { atProductionPasswordCost } from "../helpers/test-env";

const INVALID_LINK = "This reset link is invalid or has expired. Please request a new one.";
const NEW_PASSWORD = "a brand new passphrase";
const LINK = /http:\/\/localhost:3000\/lp\/reset-password\?token=([A-Za-z0-9_-]+)/;

/** Ask for a reset and return the token from the e-mail the user received. */
function requestLink(user: LpUser): string {
  const before = mailsTo(user.email).length;
  requestPasswordReset({ email: user.email });
  const mails = mailsTo(user.email);
  expect(mails).toHaveLength(before + 1);
  const token = mails.at(-1)?.text.match(LINK)?.[1];
  if (!token) throw new Error("no reset link in the e-mail");
  return token;
}

/** The AppError a promise rejected with (fails the test when it resolved). */
async function appErrorOf(run: Promise<unknown>): Promise<AppError> {
  const outcome = await run.then(
    () => null,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(AppError);
  return outcome as AppError;
}

const signIn = (email: string, password: string) =>
  callRouteWith(loginAction, apiRequest("POST", "/api/auth/login", { json: { email, password } }));

const whoAmI = async (cookie: string) => (await callRouteWith(userLoader, apiRequest("GET", "/api/auth/user", { cookie }))).status;

beforeEach(() => {
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  resetClockForTests();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

describe("requestPasswordReset", () => {
  it("e-mails a known user a reset link to APP_URL/lp/reset-password?token=…, valid for 1 hour", async () => {
    const user = await insertUser({ status: "approved", name: "Rosalind Franklin" });
    requestPasswordReset({ email: user.email.toUpperCase() });
    const mails = mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("Reset your Lumen Ridge Ventures password");
    expect(mails[0]?.text).toContain("Hello Rosalind Franklin,");
    expect(mails[0]?.text).toMatch(LINK);
    expect(mails[0]?.text).toContain("expires in 1 hour");
    const token = mails[0]?.text.match(LINK)?.[1] ?? "";
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(isResetTokenValid(token)).toBe(true);
  });

  it("for an unknown e-mail sends nothing, stores nothing and does not fail", () => {
    const outboxBefore = allOutbox().length;
    const resetsBefore = allResets().length;
    expect(requestPasswordReset({ email: "nobody-here@example.test" })).toBeUndefined();
    expect(allOutbox()).toHaveLength(outboxBefore);
    expect(allResets()).toHaveLength(resetsBefore);
  });

  it("stores only the SHA-256 of the token, never the token itself", async () => {
    const user = await insertUser({ status: "approved" });
    const token = requestLink(user);
    const rows = getDb().select().from(passwordResets).all().filter((r) => r.userId === user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    // Not in any column of the table, raw or in another encoding.
    const raw = JSON.stringify(getDb().$client.prepare("SELECT * FROM password_resets").all());
    expect(raw).not.toContain(token);
    expect(raw).not.toContain(Buffer.from(token, "base64url").toString("hex"));
  });
});

describe("resetPassword", () => {
  it("works once: the second use of the same link is refused", async () => {
    const user = await insertUser({ status: "approved" });
    const token = requestLink(user);

    const updated = await resetPassword({ token, password: NEW_PASSWORD });
    expect(updated.id).toBe(user.id);
    expect(isResetTokenValid(token)).toBe(false);

    const hashAfterFirstUse = userById(user.id).passwordHash;
    const error = await appErrorOf(resetPassword({ token, password: "yet another passphrase" }));
    expect(error.message).toBe(INVALID_LINK);
    expect(error.status).toBe(400);
    expect(userById(user.id).passwordHash).toBe(hashAfterFirstUse);
  });

  it("refuses a link after 1 hour, but not before", async () => {
    const user = await insertUser({ status: "approved" });
    const token = requestLink(user);
    const hashBefore = userById(user.id).passwordHash;

    advanceClockForTests(59 * 60 * 1000);
    expect(isResetTokenValid(token)).toBe(true);

    advanceClockForTests(60 * 1000 + 1);
    expect(isResetTokenValid(token)).toBe(false);
    const error = await appErrorOf(resetPassword({ token, password: NEW_PASSWORD }));
    expect(error.message).toBe(INVALID_LINK);
    expect(userById(user.id).passwordHash).toBe(hashBefore);
  });

  it("refuses a made-up token", async () => {
    const error = await appErrorOf(resetPassword({ token: "A".repeat(43), password: NEW_PASSWORD }));
    expect(error.message).toBe(INVALID_LINK);
  });

  it("ends every session of the user; the new password signs in and the old one does not", async () => {
    const user = await insertUser({ status: "approved" });
    const laptop = await sessionCookieFor(user);
    const phone = await sessionCookieFor(user);
    expect(await whoAmI(laptop)).toBe(200);

    // The production cost (tests hash at TEST_BCRYPT_COST): the new hash is checked below.
    await atProductionPasswordCost(() => resetPassword({ token: requestLink(user), password: NEW_PASSWORD }));

    expect(await whoAmI(laptop)).toBe(401);
    expect(await whoAmI(phone)).toBe(401);
    expect(countSessions(user.id)).toBe(0);

    const withOld = await signIn(user.email, FIXTURE_PASSWORD);
    expect(withOld.status).toBe(401);
    expect(await withOld.json()).toEqual({ error: "Invalid email or password" });
    const withNew = await signIn(user.email, NEW_PASSWORD);
    expect(withNew.status).toBe(200);
    expect(userById(user.id).passwordHash).toMatch(/^\$2[ab]\$12\$/);
  });
});

import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../db/client";
import { auditEvents, lpUsers, recoveryCodes, userTwoFactor } from "../../db/schema";
import { countSessions } from "~/modules/auth/session.server";
import { getEnv } from "~/modules/config/env.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { findUserByEmail, registerInvestor, setUserStatus, type LpUser } from "~/modules/lp-users/lp-users.server";
import { flushMailer } from "~/modules/mail/mail.server";
import { replaceRecoveryCodes } from "~/modules/two-factor/recovery-codes.server";
import { enrolWithSecret, hasTwoFactor } from "~/modules/two-factor/two-factor.server";
import { action as loginAction } from "~/routes/api/auth/login";
import { loader as userLoader } from "~/routes/api/auth/user";
import { testTotpSecret } from "../support/totp";
import { apiRequest, callRouteWith, clearAccountTables, insertAdmin, sessionCookieFor } from "../helpers/users";

/**
 * admin:create (issue 21, H1): an address someone registered is never made an
 * admin silently with the registrant's password. These run the real script
 * (`node --import tsx scripts/admin-create.ts`, what `npm run admin:create`
 * runs in a checkout) against this file's database.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const ATTACKER_PASSWORD = "attacker-chose-this-1";
const OPERATOR_PASSWORD = "operator passphrase 2468";
const TARGET = { email: "future-admin@lumenridge.example", name: "Mallory Registrant" };

type Run = { code: number | null; stdout: string; stderr: string };

/** Run scripts/admin-create.ts with this file's environment plus `env`, feeding `stdin` (none: closed at once). */
function adminCreate(args: string[], { env = {}, stdin = "" }: { env?: Record<string, string>; stdin?: string } = {}): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent", DATABASE_PATH: getEnv().DATABASE_PATH, ...env };
  delete childEnv.ADMIN_PASSWORD;
  delete childEnv.ADMIN_TOTP_SECRET;
  Object.assign(childEnv, env);
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/admin-create.ts", ...args], { cwd: ROOT, env: childEnv });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** POST /api/auth/login with a password alone: the status (an admin without two-factor gets 200 and a set-up-only session). */
async function signInStatus(email: string, password: string): Promise<number> {
  const response = await callRouteWith(loginAction, apiRequest("POST", "/api/auth/login", { json: { email, password } }));
  return response.status;
}

async function whoAmI(cookie: string): Promise<number> {
  return (await callRouteWith(userLoader, apiRequest("GET", "/api/auth/user", { cookie }))).status;
}

/**
 * The attack: someone registers the future admin's address with a password of
 * their own (the public registration), is approved by mistake, signs in and
 * turns on two-factor with their own authenticator.
 */
async function registeredByAttacker(): Promise<{ user: LpUser; cookie: string }> {
  await registerInvestor({ email: TARGET.email, name: TARGET.name, password: ATTACKER_PASSWORD, company: undefined });
  const approver = await insertAdmin();
  setUserStatus(approver, findUserByEmail(TARGET.email)!.id, "approved");
  const user = findUserByEmail(TARGET.email)!;
  const cookie = await sessionCookieFor(user);
  enrolWithSecret(user.id, testTotpSecret("attacker's own authenticator"));
  replaceRecoveryCodes(getDb(), user.id);
  return { user, cookie };
}

beforeEach(() => {
  clearAccountTables();
  resetRateLimitsForTests();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

describe("npm run admin:create on an address that already has an account", () => {
  it("refuses without --promote: exit code not 0, says who registered it and how to promote; nothing changes", async () => {
    const { user, cookie } = await registeredByAttacker();
    const before = getDb().select().from(lpUsers).where(eq(lpUsers.id, user.id)).get();
    const run = await adminCreate(["--email", TARGET.email, "--name", "Ada Operator", "--password", OPERATOR_PASSWORD]);
    // The registrant's account is not an admin (with the registrant's password and authenticator).
    expect(getDb().select().from(lpUsers).where(eq(lpUsers.id, user.id)).get()).toEqual(before);
    expect(run.code, run.stdout + run.stderr).not.toBe(0);
    expect(run.stderr).toContain(TARGET.email);
    expect(run.stderr).toContain(TARGET.name);
    expect(run.stderr).toContain("approved");
    expect(run.stderr).toContain("--promote");
    expect(hasTwoFactor(user.id)).toBe(true);
    expect(await whoAmI(cookie)).toBe(200);
    expect(await signInStatus(TARGET.email, OPERATOR_PASSWORD)).toBe(401);
  }, 30_000);

  it("--promote: the registrant's password, sessions and two-factor are gone; the operator's password signs in", async () => {
    const { user, cookie } = await registeredByAttacker();
    const run = await adminCreate(["--email", TARGET.email, "--name", "Ada Operator", "--promote", "--password", OPERATOR_PASSWORD]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // The operator is told who registered the account before it became theirs.
    expect(run.stdout).toContain(TARGET.name);

    const after = findUserByEmail(TARGET.email)!;
    expect(after).toMatchObject({ id: user.id, isAdmin: true, status: "approved" });
    expect(await whoAmI(cookie)).toBe(401);
    expect(countSessions(user.id)).toBe(0);
    expect(hasTwoFactor(user.id)).toBe(false);
    expect(getDb().select().from(userTwoFactor).where(eq(userTwoFactor.userId, user.id)).all()).toEqual([]);
    expect(getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id)).all()).toEqual([]);

    expect(await signInStatus(TARGET.email, ATTACKER_PASSWORD)).toBe(401);
    expect(await signInStatus(TARGET.email, OPERATOR_PASSWORD)).toBe(200);
    const audit = getDb().select().from(auditEvents).where(and(eq(auditEvents.event, "user.promoted_to_admin"), eq(auditEvents.targetId, user.id))).all();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ targetId: user.id, targetLabel: TARGET.email });
  }, 30_000);
});

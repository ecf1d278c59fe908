import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "../../app/modules/db/connection.server";
import { auditEvents, lpUsers, recoveryCodes, userTwoFactor } from "../../db/schema";
import { countSessions } from "~/modules/auth/session.server";
import { now } from "~/modules/config/clock.server";
import { AdminAccountError, createAdminAccount, promoteToAdmin } from "~/modules/lp-users/admin-create.server";
import { getEnv } from "~/modules/config/env.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import { findUserByEmail, isResetTokenValid, requestPasswordReset, setUserStatus, type LpUser } from "~/modules/lp-users/lp-users.server";
import { flushMailer } from "~/modules/mail/mail.server";
import { registerInvestor } from "~/modules/lp-users/registration.server";
import { recoveryCodesLeft, replaceRecoveryCodes } from "~/modules/two-factor/recovery-codes.server";
import { totpCode } from "~/modules/two-factor/totp.server";
import { enrolWithSecret, hasTwoFactor } from "~/modules/two-factor/two-factor.server";
import { action as loginAction } from "~/routes/api/auth/login";
import { loader as userLoader } from "~/routes/api/auth/user";
import { ADMIN_CREATE_PROMPTS, runOnTerminal } from "../support/terminal";
import { testTotpSecret } from "../support/totp";
import { apiRequest, callRouteWith, clearAccountTables, insertAdmin, mailsTo, registerAndConfirm, sessionCookieFor } from "../helpers/users";

/**
 * admin:create (issue 21, H1): an address someone registered is never made an
 * admin silently with the registrant's password. These run the real script,
 * scripts/admin-create.ts, compiled once for the file with esbuild (as the
 * build compiles it; no TypeScript loader started at each run), with plain
 * node against this file's database.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const ATTACKER_PASSWORD = "attacker-chose-this-1";
const OPERATOR_PASSWORD = "operator passphrase 2468";
const TARGET = { email: "future-admin@lumenridge.example", name: "Mallory Registrant" };

type Run = { code: number | null; stdout: string; stderr: string };

/** scripts/admin-create.ts as one ES module (its packages stay in node_modules), made once per file. */
let compiled: string | undefined;
function compiledScript(): string {
  if (!compiled) {
    compiled = path.join(ROOT, "node_modules/.cache/lumen-ridge-vitest", `admin-create-${process.pid}-${Date.now()}.mjs`);
    buildSync({
      entryPoints: [path.join(ROOT, "scripts/admin-create.ts")],
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      alias: { "~": path.join(ROOT, "app") },
      outfile: compiled,
      logLevel: "warning",
    });
  }
  return compiled;
}
afterAll(() => {
  if (compiled) fs.rmSync(compiled, { force: true });
});

/** Run scripts/admin-create.ts with this file's environment plus `env`, feeding `stdin` (none: closed at once). */
function adminCreate(args: string[], { env = {}, stdin = "" }: { env?: Record<string, string>; stdin?: string } = {}): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent", DATABASE_PATH: getEnv().DATABASE_PATH, ...env };
  delete childEnv.ADMIN_PASSWORD;
  delete childEnv.ADMIN_TOTP_SECRET;
  Object.assign(childEnv, env);
  const child = spawn(process.execPath, [compiledScript(), ...args], { cwd: ROOT, env: childEnv });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/**
 * Run scripts/admin-create.ts on a pseudo-terminal, as a person at a terminal
 * runs it: each of `typed` is typed once the next prompt has appeared
 * (tests/support/terminal.ts). `output` is everything the terminal showed.
 */
async function adminCreateOnTerminal(args: string[], typed: string[]): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "silent", DATABASE_PATH: getEnv().DATABASE_PATH };
  delete env.ADMIN_PASSWORD;
  delete env.ADMIN_TOTP_SECRET;
  const { status, output } = await runOnTerminal([process.execPath, compiledScript(), ...args], typed, { prompts: ADMIN_CREATE_PROMPTS, cwd: ROOT, env });
  return { code: status, output };
}

/** POST /api/auth/login (with a code when given): the status (an admin without two-factor gets 200 and a set-up-only session). */
async function signInStatus(email: string, password: string, code?: string): Promise<number> {
  const response = await callRouteWith(loginAction, apiRequest("POST", "/api/auth/login", { json: code ? { email, password, code } : { email, password } }));
  return response.status;
}

const OPERATOR_SECRET = testTotpSecret(TARGET.email);
const ATTACKER_SECRET = testTotpSecret("attacker's own authenticator");

/** Neither the password nor the secret (in any spacing or case) in what the script printed. */
function expectNothingSecret(run: Run, ...secrets: string[]) {
  const printed = (run.stdout + run.stderr).toLowerCase();
  for (const secret of secrets) {
    expect(printed).not.toContain(secret.toLowerCase());
    expect(printed).not.toContain(secret.slice(0, 8).toLowerCase());
  }
}

async function whoAmI(cookie: string): Promise<number> {
  return (await callRouteWith(userLoader, apiRequest("GET", "/api/auth/user", { cookie }))).status;
}

/**
 * The attack: someone registers the future admin's address with a password of
 * their own (the public registration), is approved by mistake, signs in and
 * turns on two-factor with their own authenticator. Since registrations prove
 * their address (decision 028) this needs the mailbox, or an account from before
 * that: the account is confirmed here as either would be.
 */
async function registeredByAttacker(): Promise<{ user: LpUser; cookie: string }> {
  await registerAndConfirm({ email: TARGET.email, name: TARGET.name, password: ATTACKER_PASSWORD });
  const approver = await insertAdmin();
  setUserStatus(approver, findUserByEmail(TARGET.email)!.id, "approved");
  const user = findUserByEmail(TARGET.email)!;
  const cookie = await sessionCookieFor(user);
  enrolWithSecret(user.id, ATTACKER_SECRET);
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

describe("npm run admin:create on an address someone registered but never confirmed", () => {
  it("creates the operator's account: the registration is dropped and the registrant's password signs nothing in", async () => {
    await registerInvestor({ email: TARGET.email, name: TARGET.name, password: ATTACKER_PASSWORD, company: undefined });
    const run = await adminCreate(["--email", TARGET.email, "--name", "Ada Operator"], { env: { ADMIN_PASSWORD: OPERATOR_PASSWORD } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(findUserByEmail(TARGET.email)).toMatchObject({ isAdmin: true, name: "Ada Operator", confirmedAt: expect.any(Date) });
    expect(await signInStatus(TARGET.email, ATTACKER_PASSWORD)).toBe(401);
    expect(await signInStatus(TARGET.email, OPERATOR_PASSWORD)).toBe(200);
    expectNothingSecret(run, OPERATOR_PASSWORD);
  }, 30_000);
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
    const run = await adminCreate(["--email", TARGET.email, "--name", "Ada Operator", "--promote"], { env: { ADMIN_PASSWORD: OPERATOR_PASSWORD } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // The operator is told who registered the account, and when, before it became theirs.
    expect(run.stdout).toContain(TARGET.name);
    expect(run.stdout).toMatch(/registered as "Mallory Registrant"\n {2}on [A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} UTC\n {2}status: approved, not an admin, two-factor on/);
    expectNothingSecret(run, OPERATOR_PASSWORD);

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

describe("createAdminAccount and promoteToAdmin", () => {
  it("createAdminAccount makes a new approved admin, and refuses an address someone registered (nothing changes)", async () => {
    const { id } = await createAdminAccount({ email: "new-admin@lumenridge.example", name: "New Admin", password: OPERATOR_PASSWORD });
    expect(findUserByEmail("new-admin@lumenridge.example")).toMatchObject({ id, isAdmin: true, status: "approved", name: "New Admin" });
    expect(hasTwoFactor(id)).toBe(false);

    const { user } = await registeredByAttacker();
    const refused = await createAdminAccount({ email: TARGET.email, name: "Ada Operator", password: OPERATOR_PASSWORD }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AdminAccountError);
    expect(refused).toMatchObject({ reason: "exists", account: { id: user.id, name: TARGET.name, status: "approved", isAdmin: false, twoFactor: true } });
    expect(findUserByEmail(TARGET.email)).toEqual(user);
  });

  it("promoteToAdmin takes everything the registrant set: password, sessions, reset links, two-factor and recovery codes; audited", async () => {
    const { user, cookie } = await registeredByAttacker();
    requestPasswordReset({ email: TARGET.email });
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mailsTo(TARGET.email).map((m) => m.text).join("\n"))?.[1];
    expect(token && isResetTokenValid(token)).toBe(true);

    const promotion = await promoteToAdmin({ email: TARGET.email, password: OPERATOR_PASSWORD });
    expect(promotion).toMatchObject({ before: { id: user.id, name: TARGET.name, status: "approved", isAdmin: false, twoFactor: true }, sessionsEnded: 1 });
    // Without --name the registered name stays.
    expect(findUserByEmail(TARGET.email)).toMatchObject({ isAdmin: true, status: "approved", name: TARGET.name });
    expect(await whoAmI(cookie)).toBe(401);
    expect(isResetTokenValid(token!)).toBe(false);
    expect(hasTwoFactor(user.id)).toBe(false);
    expect(recoveryCodesLeft(getDb(), user.id)).toBe(0);
    expect(await signInStatus(TARGET.email, ATTACKER_PASSWORD, totpCode(ATTACKER_SECRET, now().getTime()))).toBe(401);
    expect(await signInStatus(TARGET.email, OPERATOR_PASSWORD)).toBe(200);

    const rows = getDb().select().from(auditEvents).where(and(eq(auditEvents.event, "user.promoted_to_admin"), eq(auditEvents.targetId, user.id))).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.actorId).toBeNull();
    expect(JSON.parse(rows[0]!.details)).toMatchObject({
      via: "command line",
      registeredName: TARGET.name,
      previousStatus: "approved",
      hadTwoFactor: true,
      sessionsEnded: 1,
      twoFactor: "cleared",
    });
  });

  it("promoteToAdmin with a TOTP secret and a name: two-factor is on with that secret only, the name replaced", async () => {
    const { user } = await registeredByAttacker();
    await promoteToAdmin({ email: TARGET.email, name: "Ada Operator", password: OPERATOR_PASSWORD, totpSecret: OPERATOR_SECRET });
    expect(findUserByEmail(TARGET.email)).toMatchObject({ name: "Ada Operator", isAdmin: true });
    expect(hasTwoFactor(user.id)).toBe(true);
    expect(recoveryCodesLeft(getDb(), user.id)).toBe(0);
    expect(await signInStatus(TARGET.email, OPERATOR_PASSWORD, totpCode(ATTACKER_SECRET, now().getTime()))).toBe(401);
    expect(await signInStatus(TARGET.email, OPERATOR_PASSWORD, totpCode(OPERATOR_SECRET, now().getTime()))).toBe(200);
  });

  it("promoteToAdmin on an address without an account refuses (nothing is created)", async () => {
    const refused = await promoteToAdmin({ email: "nobody@lumenridge.example", password: OPERATOR_PASSWORD }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ reason: "missing", account: null });
    expect(findUserByEmail("nobody@lumenridge.example")).toBeUndefined();
  });
});

describe("the script's secret inputs (DESIGN.md §8): never printed, never needed on the command line", () => {
  const NEW = { email: "provisioned@lumenridge.example", name: "Provisioned Admin" };
  const secret = testTotpSecret(NEW.email);

  it("ADMIN_PASSWORD and ADMIN_TOTP_SECRET: the admin is made with two-factor on; neither value is printed", async () => {
    const run = await adminCreate(["--email", NEW.email, "--name", NEW.name], { env: { ADMIN_PASSWORD: OPERATOR_PASSWORD, ADMIN_TOTP_SECRET: secret } });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`Created admin ${NEW.email}`);
    expectNothingSecret(run, OPERATOR_PASSWORD, secret);
    expect(await signInStatus(NEW.email, OPERATOR_PASSWORD, totpCode(secret, now().getTime()))).toBe(200);
  }, 30_000);

  it("--password-stdin and --totp-secret-file: the same; neither value is printed", async () => {
    const file = path.join(path.dirname(getEnv().DATABASE_PATH), "totp-secret.txt");
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    const run = await adminCreate(["--email", NEW.email, "--name", NEW.name, "--password-stdin", "--totp-secret-file", file], { stdin: `${OPERATOR_PASSWORD}\n` });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expectNothingSecret(run, OPERATOR_PASSWORD, secret);
    expect(await signInStatus(NEW.email, OPERATOR_PASSWORD, totpCode(secret, now().getTime()))).toBe(200);
  }, 30_000);

  it("a bad secret is refused without echoing it; two ways of giving one value are refused; no password and no terminal is refused", async () => {
    const badSecret = "not-base32-secret-0189!";
    const bad = await adminCreate(["--email", NEW.email, "--name", NEW.name], { env: { ADMIN_PASSWORD: OPERATOR_PASSWORD, ADMIN_TOTP_SECRET: badSecret } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("TOTP secret: must be a base32 secret");
    expectNothingSecret(bad, OPERATOR_PASSWORD, badSecret);

    const twice = await adminCreate(["--email", NEW.email, "--name", NEW.name, "--password-stdin"], { env: { ADMIN_PASSWORD: OPERATOR_PASSWORD }, stdin: OPERATOR_PASSWORD });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("Give it one way only, not --password-stdin and ADMIN_PASSWORD.");
    expectNothingSecret(twice, OPERATOR_PASSWORD);

    const none = await adminCreate(["--email", NEW.email, "--name", NEW.name]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("No password given");
    expect(findUserByEmail(NEW.email)).toBeUndefined();
  }, 30_000);

  it("on a terminal it asks twice without showing what is typed (the README's way); Ctrl-D at the prompt changes nothing", async () => {
    const run = await adminCreateOnTerminal(["--email", NEW.email, "--name", NEW.name], [OPERATOR_PASSWORD, OPERATOR_PASSWORD]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`Password for ${NEW.email} (not shown): `);
    expect(run.output).toContain("The same password again: ");
    expect(run.output).toContain(`Created admin ${NEW.email}`);
    expect(run.output.toLowerCase()).not.toContain(OPERATOR_PASSWORD.slice(0, 8).toLowerCase());
    expect(await signInStatus(NEW.email, OPERATOR_PASSWORD)).toBe(200);

    const other = "someone-else@lumenridge.example";
    const ctrlD = await adminCreateOnTerminal(["--email", other, "--name", NEW.name], ["\u0004"]);
    expect(ctrlD.code).toBe(2);
    expect(ctrlD.output).toContain("No password entered. Nothing was changed.");
    expect(ctrlD.output).not.toContain("AbortError");
    expect(findUserByEmail(other)).toBeUndefined();
  }, 30_000);

  it("--help names the safe inputs and says the command-line secrets are for throwaway setups", async () => {
    const run = await adminCreate(["--help"]);
    expect(run.code).toBe(0);
    for (const text of ["--promote", "--password-stdin", "ADMIN_PASSWORD", "ADMIN_TOTP_SECRET", "--totp-secret-file", "throwaway", "`ps`"]) {
      expect(run.stdout).toContain(text);
    }
  }, 30_000);
});

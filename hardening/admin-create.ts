/**
 * admin-create: taking over the first admin through `admin:create` (issue 21,
 * H1), and the two-factor values the server brings to their current form at
 * start (L5), against the production build, as an attacker and an operator
 * would go about it (decision 029).
 *
 * - An attacker registers the future admin's address through the running
 *   server's POST /api/auth/register, with a password of their own. The
 *   registration is unproved (the link went to the real owner's mailbox), so
 *   the operator's admin:create makes a new account with the operator's
 *   password and drops the pending registration.
 * - Someone who did prove the address (registered and confirmed through the
 *   mailed link): the operator runs the compiled build/server/admin-create.js
 *   on the server's database, the password in ADMIN_PASSWORD: without
 *   --promote it refuses (exit 1, names the registrant, nothing changes); with
 *   --promote it says who registered the account and when, and takes it over.
 * - At the running server: the registrant's password no longer signs in, the
 *   operator's does. What the script printed holds neither the password nor
 *   the TOTP secret (a new admin made with ADMIN_TOTP_SECRET signs in with a
 *   code from it). Run on a terminal as the README says, it asks for the
 *   password twice and shows nothing of what is typed.
 * - Two-factor values written as the code before stored them (a v1 sealed
 *   secret, plain SHA-256 recovery codes), then a restart: they are v2 and
 *   keyed (h1), and the TOTP and recovery codes still sign in.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ADMIN_CREATE_PROMPTS, runOnTerminal } from "../tests/support/terminal";
import { nextTotpCode, testTotpSecret } from "../tests/support/totp";
import { legacyRecoveryHash, sealV1 } from "../tests/helpers/legacy-two-factor";
import { confirmRegistration, createAdmin, jsonBody, openDatabase, request, ROOT, startServer, Tally, unique, type AppServer, type HttpAnswer, type Section } from "./harness";

const ATTACKER_PASSWORD = "attacker-chose-this-password-1";
// Its first 8 characters appear in no name or address the script prints ("operator" did: "Ada Operator").
const OPERATOR_PASSWORD = "quartz7 passphrase for hardening 2468";
const RECOVERY_CODE = "abcde-fghjk";

type Run = { status: number | null; stdout: string; stderr: string };

/** build/server/admin-create.js on the server's database, as an operator runs it, with `env` (the secrets) added. */
function adminCreate(server: AppServer, args: string[], env: Record<string, string> = {}): Run {
  const base: NodeJS.ProcessEnv = { ...process.env, SESSION_SECRET: server.env.SESSION_SECRET!, DATABASE_PATH: server.dbPath, LOG_LEVEL: "silent" };
  delete base.ADMIN_PASSWORD;
  delete base.ADMIN_TOTP_SECRET;
  const run = spawnSync(process.execPath, [path.join(server.buildDir, "server/admin-create.js"), ...args], {
    cwd: ROOT,
    env: { ...base, ...env },
    input: "",
    encoding: "utf8",
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * The same on a pseudo-terminal (util-linux `script`), as the README has an operator run it: each of
 * `typed` is typed once the next prompt has appeared. `output` is everything the terminal showed.
 */
function adminCreateOnTerminal(server: AppServer, args: string[], typed: string[]): Promise<{ status: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, SESSION_SECRET: server.env.SESSION_SECRET!, DATABASE_PATH: server.dbPath, LOG_LEVEL: "silent" };
  delete env.ADMIN_PASSWORD;
  delete env.ADMIN_TOTP_SECRET;
  return runOnTerminal([process.execPath, path.join(server.buildDir, "server/admin-create.js"), ...args], typed, { prompts: ADMIN_CREATE_PROMPTS, cwd: ROOT, env });
}

function signIn(server: AppServer, body: Record<string, string>): Promise<HttpAnswer> {
  return request(server.url, "POST", "/api/auth/login", jsonBody(body));
}

/** Whether the run's output holds any of the secrets (whole, or their first 8 characters). */
function printsSecret(run: Run, ...secrets: string[]): boolean {
  const printed = (run.stdout + run.stderr).toLowerCase();
  return secrets.some((secret) => printed.includes(secret.toLowerCase()) || printed.includes(secret.slice(0, 8).toLowerCase()));
}

export const section: Section = {
  name: "admin-create",
  run: async (ctx) => {
    const t = new Tally();
    const server = await startServer(ctx, { name: "admin-create" });
    try {
      // ── the takeover attempt: a registration nobody proved ────────────────
      const target = { email: `future-admin-${unique()}@lumenridge.example`, name: "Mallory Registrant" };
      const registered = await request(server.url, "POST", "/api/auth/register", jsonBody({ ...target, password: ATTACKER_PASSWORD }));
      t.check("the attacker registers the future admin's address: 201", registered.status === 201, `${registered.status} ${registered.text.slice(0, 120)}`);
      let db = openDatabase(server);
      const pending = (email: string) => (db.prepare("select count(*) as n from registration_requests where email = ?").get(email) as { n: number }).n;
      t.count("… an unproved registration, waiting for its link", pending(target.email), 1);
      const created = adminCreate(server, ["--email", target.email, "--name", "Ada Operator"], { ADMIN_PASSWORD: OPERATOR_PASSWORD });
      t.check("admin:create on the unproved address: exit 0, a new account", created.status === 0 && created.stdout.includes("Created admin"), `exit ${created.status}: ${created.stdout}${created.stderr}`.slice(0, 300));
      t.count("… and the pending registration is gone", pending(target.email), 0);
      const byAttacker = await signIn(server, { email: target.email, password: ATTACKER_PASSWORD });
      t.check("the attacker's password does not sign in: 401", byAttacker.status === 401, `${byAttacker.status} ${byAttacker.text.slice(0, 120)}`);
      const byNewAdmin = await signIn(server, { email: target.email, password: OPERATOR_PASSWORD });
      t.check("the operator's password signs in (200, a session limited to setting up two-factor)", byNewAdmin.status === 200, `${byNewAdmin.status} ${byNewAdmin.text.slice(0, 120)}`);

      // ── promoting an account whose owner proved the address ───────────────
      const registrant = { email: `staff-${unique()}@lumenridge.example`, name: "Rowan Registrant", password: ATTACKER_PASSWORD };
      const proved = await request(server.url, "POST", "/api/auth/register", jsonBody(registrant));
      t.check("a registrant registers: 201", proved.status === 201, `${proved.status} ${proved.text.slice(0, 120)}`);
      await confirmRegistration(server, registrant.email, registrant.password);
      const row = () => db.prepare("select id, password_hash, is_admin, status, name from lp_users where email = ?").get(registrant.email) as
        | { id: string; password_hash: string; is_admin: number; status: string; name: string }
        | undefined;
      const before = row();
      t.check("… and confirms through the mailed link (an account)", before !== undefined && before.is_admin === 0, JSON.stringify(before));

      const refused = adminCreate(server, ["--email", registrant.email, "--name", "Ada Operator"], { ADMIN_PASSWORD: OPERATOR_PASSWORD });
      t.check(
        "admin:create without --promote: exit 1, names the registrant and --promote",
        refused.status === 1 && refused.stderr.includes(registrant.name) && refused.stderr.includes("--promote"),
        `exit ${refused.status}: ${refused.stdout}${refused.stderr}`.slice(0, 300),
      );
      t.check("… and the account is unchanged (not an admin, the registrant's password)", JSON.stringify(row()) === JSON.stringify(before), JSON.stringify(row()));

      const promoted = adminCreate(server, ["--email", registrant.email, "--promote"], { ADMIN_PASSWORD: OPERATOR_PASSWORD });
      t.check(
        "admin:create --promote: exit 0, says who registered the account and when",
        promoted.status === 0 && promoted.stdout.includes(`registered as "${registrant.name}"`) && / on [A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} UTC/.test(promoted.stdout),
        `exit ${promoted.status}: ${promoted.stdout}${promoted.stderr}`.slice(0, 300),
      );
      t.check(
        "nothing secret printed (created, refused and promoted runs)",
        [created, refused, promoted].every((run) => !printsSecret(run, OPERATOR_PASSWORD)),
        "the password appears in the output",
      );

      const byRegistrant = await signIn(server, { email: registrant.email, password: ATTACKER_PASSWORD });
      t.check("the registrant's password no longer signs in: 401", byRegistrant.status === 401, `${byRegistrant.status} ${byRegistrant.text.slice(0, 120)}`);
      const byOperator = await signIn(server, { email: registrant.email, password: OPERATOR_PASSWORD });
      t.check("the operator's password signs in (200, a session limited to setting up two-factor)", byOperator.status === 200, `${byOperator.status} ${byOperator.text.slice(0, 120)}`);
      const audited = db.prepare("select count(*) as n from audit_events where event = 'user.promoted_to_admin' and target_id = ?").get(before?.id ?? "") as { n: number };
      t.count("user.promoted_to_admin audit rows", audited.n, 1);

      // ── a new admin from the environment's secrets ────────────────────────
      const provisioned = `provisioned-${unique()}@lumenridge.example`;
      const secret = testTotpSecret(provisioned);
      const provisionedRun = adminCreate(server, ["--email", provisioned, "--name", "Provisioned Admin"], { ADMIN_PASSWORD: OPERATOR_PASSWORD, ADMIN_TOTP_SECRET: secret });
      t.check("admin:create with ADMIN_PASSWORD and ADMIN_TOTP_SECRET: exit 0, nothing secret printed", provisionedRun.status === 0 && !printsSecret(provisionedRun, OPERATOR_PASSWORD, secret), `exit ${provisionedRun.status}: ${provisionedRun.stderr.slice(0, 200)}`);
      const withCode = await signIn(server, { email: provisioned, password: OPERATOR_PASSWORD, code: (await nextTotpCode(provisioned)).code });
      t.check("… and signs in with a code from that secret", withCode.status === 200, `${withCode.status} ${withCode.text.slice(0, 120)}`);

      // ── the README's way: on a terminal, the password asked for twice and never shown ─
      const typedAt = `typed-${unique()}@lumenridge.example`;
      const onTerminal = await adminCreateOnTerminal(server, ["--email", typedAt, "--name", "Typed Admin"], [OPERATOR_PASSWORD, OPERATOR_PASSWORD]);
      t.check(
        "admin:create on a terminal: asks twice, exit 0, what was typed is not shown",
        onTerminal.status === 0 && onTerminal.output.includes("(not shown): ") && onTerminal.output.includes("Created admin") && !printsSecret({ status: 0, stdout: onTerminal.output, stderr: "" }, OPERATOR_PASSWORD),
        `exit ${onTerminal.status}: ${onTerminal.output}`.slice(0, 300),
      );
      const typedSignIn = await signIn(server, { email: typedAt, password: OPERATOR_PASSWORD });
      t.check("… and the typed password signs in", typedSignIn.status === 200, `${typedSignIn.status} ${typedSignIn.text.slice(0, 120)}`);

      // ── two-factor values from before, brought to the current form at start ─
      const legacy = `legacy-${unique()}@lumenridge.example`;
      createAdmin(server, legacy, OPERATOR_PASSWORD, "Legacy Admin");
      const writable = openDatabase(server, false);
      const legacyId = (writable.prepare("select id from lp_users where email = ?").get(legacy) as { id: string }).id;
      writable.prepare("update user_two_factor set secret_enc = ? where user_id = ?").run(sealV1(testTotpSecret(legacy), server.env.SESSION_SECRET), legacyId);
      writable.prepare("insert into recovery_codes (id, user_id, code_hash, created_at) values (?, ?, ?, ?)").run(crypto.randomUUID(), legacyId, legacyRecoveryHash(RECOVERY_CODE), Date.now());
      writable.close();
      db.close();
      await server.stop();
      await server.start();
      db = openDatabase(server);
      const stored = db.prepare("select secret_enc from user_two_factor where user_id = ?").get(legacyId) as { secret_enc: string };
      const codes = db.prepare("select code_hash from recovery_codes where user_id = ?").all(legacyId) as { code_hash: string }[];
      t.check("after a restart the v1 secret is sealed as v2", stored.secret_enc.startsWith("v2."), stored.secret_enc.slice(0, 12));
      t.check("… and the plain SHA-256 recovery code is a keyed hash (h1)", codes.length === 1 && codes[0]!.code_hash.startsWith("h1."), JSON.stringify(codes).slice(0, 120));
      t.check("… the server logged it", server.logLines().some((line) => line.includes("Two-factor values brought to the current form")), "no log line");
      const totpAfter = await signIn(server, { email: legacy, password: OPERATOR_PASSWORD, code: (await nextTotpCode(legacy)).code });
      t.check("… a TOTP code still signs in", totpAfter.status === 200, `${totpAfter.status} ${totpAfter.text.slice(0, 120)}`);
      const recoveryAfter = await signIn(server, { email: legacy, password: OPERATOR_PASSWORD, code: RECOVERY_CODE });
      t.check("… and so does the recovery code (once)", recoveryAfter.status === 200, `${recoveryAfter.status} ${recoveryAfter.text.slice(0, 120)}`);
      db.close();
      t.count("server crashes", server.unexpectedExits());
    } finally {
      await server.stop();
    }
    return t.result();
  },
};

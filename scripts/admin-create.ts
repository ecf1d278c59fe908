import fs from "node:fs";
import { parseArgs } from "node:util";
import { adminDateTime } from "../app/modules/dates/format";
import {
  AdminAccountError,
  createAdminAccount,
  findRegisteredAccount,
  promoteToAdmin,
  type RegisteredAccount,
} from "../app/modules/lp-users/admin-create.server";
import { AdminCreateInput, AdminPromoteInput } from "../app/modules/lp-users/schema";
import { closeDb } from "../app/modules/db/connection.server";
import { canPrompt, promptHidden, readSecret, SecretInputError } from "./lib/secret-input";

/**
 * npm run admin:create -- --email E --name N [--promote]
 *
 * Creates an approved admin, or (with --promote, asked for by name) makes an
 * existing account one: decision 029. The password comes from a hidden prompt,
 * --password-stdin or ADMIN_PASSWORD; a TOTP secret to pre-enrol from
 * ADMIN_TOTP_SECRET or --totp-secret-file. Nothing secret is printed.
 * Exit codes: 0 done, 1 refused (the address has an account, or --promote and
 * it has none), 2 bad arguments or input.
 */

const USAGE = `Usage: npm run admin:create -- --email you@firm.example --name "Your Name" [--promote] [options]

Creates an approved admin. The password is asked for (hidden) when a terminal is
attached; otherwise give it on standard input with --password-stdin, or in the
environment variable ADMIN_PASSWORD.

  --email E               the admin's e-mail address
  --name N                the admin's name (with --promote optional: replaces the registered name)
  --promote               make the EXISTING account with this e-mail an admin: shows who
                          registered it and when, sets the password you give, ends every
                          session of the account and clears its two-factor (the owner sets
                          it up again at the first sign-in)
  --password-stdin        read the password from standard input (e.g. from a secrets manager)
  --totp-secret-file F    turn two-factor on with the base32 secret in file F (provisioning,
                          tests); or set ADMIN_TOTP_SECRET instead
  --help                  show this text

For throwaway setups only (the values are visible in \`ps\`, npm echoes the command,
the shell keeps it in its history):
  --password P            the password on the command line
  --totp-secret BASE32    the TOTP secret on the command line

Nothing secret is printed. Exit codes: 0 done, 1 refused, 2 bad arguments.`;

function fail(code: 1 | 2, message: string): never {
  console.error(message);
  closeDb();
  process.exit(code);
}

/** A registered value as the operator reads it: quoted, with control characters escaped (a name is whatever the registrant typed). */
const shown = (value: string) => JSON.stringify(value);

function describe(account: RegisteredAccount): string {
  const company = account.company ? ` (company ${shown(account.company)})` : "";
  return [
    `  registered as ${shown(account.name)}${company}`,
    `  on ${adminDateTime(account.createdAt)} UTC`,
    `  status: ${account.status}${account.isAdmin ? ", already an admin" : ", not an admin"}, two-factor ${account.twoFactor ? "on" : "off"}`,
  ].join("\n");
}

if (fs.existsSync(".env")) process.loadEnvFile(".env");

let values;
try {
  ({ values } = parseArgs({
    options: {
      email: { type: "string" },
      name: { type: "string" },
      promote: { type: "boolean", default: false },
      password: { type: "string" },
      "password-stdin": { type: "boolean", default: false },
      "totp-secret": { type: "string" },
      "totp-secret-file": { type: "string" },
      help: { type: "boolean", default: false },
    },
  }));
} catch (error) {
  fail(2, `${(error as Error).message}\n\n${USAGE}`);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

// The address first: whether it has an account decides everything else, before any password is asked for.
const email = AdminCreateInput.shape.email.safeParse(values.email ?? "");
if (!email.success) fail(2, `--email: ${email.error.issues[0]?.message ?? "invalid"}\n\n${USAGE}`);
const existing = findRegisteredAccount(email.data);

if (existing && !values.promote) {
  fail(
    1,
    [
      `An account with the e-mail ${email.data} already exists:`,
      describe(existing),
      "",
      "Nothing was changed. Anyone can register an address on the site, so admin:create",
      "never makes an existing account an admin by itself.",
      "If this is the account of the person who should be admin, run the same command",
      "with --promote: it sets the password you give, ends every session of the account",
      "and clears its two-factor, so only you hold it afterwards.",
    ].join("\n"),
  );
}
if (!existing && values.promote) {
  fail(1, `No account has the e-mail ${email.data}: nothing to promote. Leave out --promote to create the admin.`);
}
if (!existing) {
  const name = AdminCreateInput.shape.name.safeParse(values.name ?? "");
  if (!name.success) fail(2, `--name: ${name.error.issues[0]?.message ?? "invalid"}\n\n${USAGE}`);
}
if (existing) console.log(`Promoting the account with the e-mail ${email.data}:\n${describe(existing)}`);

let password: string | null;
let totpSecret: string | null;
try {
  totpSecret = await readSecret({
    flag: values["totp-secret"],
    flagName: "totp-secret",
    envName: "ADMIN_TOTP_SECRET",
    file: values["totp-secret-file"],
    fileFlagName: "totp-secret-file",
  });
  password = await readSecret({
    flag: values.password,
    flagName: "password",
    envName: "ADMIN_PASSWORD",
    stdin: values["password-stdin"],
    stdinFlagName: "password-stdin",
  });
  if (password === null) {
    if (!canPrompt()) {
      fail(2, "No password given: attach a terminal to be asked, or use --password-stdin or ADMIN_PASSWORD (see --help).");
    }
    password = await promptHidden(`Password for ${email.data} (not shown): `);
    const again = await promptHidden("The same password again: ");
    if (again !== password) fail(2, "The two passwords differ. Nothing was changed.");
  }
} catch (error) {
  if (error instanceof SecretInputError) fail(2, error.message);
  // Ctrl-D at the hidden prompt: readline rejects the question with an AbortError.
  if ((error as { code?: unknown } | null)?.code === "ABORT_ERR") fail(2, "No password entered. Nothing was changed.");
  throw error;
}

const fields = { email: values.email, name: values.name, password, ...(totpSecret !== null ? { totpSecret } : {}) };
const parsed = (existing ? AdminPromoteInput : AdminCreateInput).safeParse(fields);
if (!parsed.success) {
  // Field names only, never a value (the messages are fixed texts).
  const flags: Record<string, string> = { totpSecret: "TOTP secret", password: "password" };
  fail(2, parsed.error.issues.map((issue) => `${flags[String(issue.path[0])] ?? `--${issue.path.join(".")}`}: ${issue.message}`).join("\n"));
}

try {
  if (existing) {
    const { sessionsEnded } = await promoteToAdmin(parsed.data as AdminPromoteInput);
    console.log(
      [
        `${email.data} is now an approved admin with the password you gave.`,
        `${sessionsEnded} session(s) of the account ended; its password reset links no longer work.`,
        parsed.data.totpSecret
          ? "Two-factor authentication is on with the given secret (recovery codes: none until the admin makes them)."
          : "Its two-factor authentication and recovery codes were cleared: the admin sets it up at the first sign-in at /admin/login.",
      ].join("\n"),
    );
  } else {
    const { id } = await createAdminAccount(parsed.data as AdminCreateInput);
    console.log(`Created admin ${email.data} (id ${id}).`);
    console.log(
      parsed.data.totpSecret
        ? "Two-factor authentication is on with the given secret."
        : "At the first sign-in at /admin/login the admin sets up two-factor authentication.",
    );
  }
} catch (error) {
  if (error instanceof AdminAccountError && error.account) {
    fail(1, `An account with the e-mail ${email.data} was registered meanwhile:\n${describe(error.account)}\nNothing was changed; see --promote in --help.`);
  }
  if (error instanceof AdminAccountError) fail(1, `No account has the e-mail ${email.data} any more: nothing to promote.`);
  throw error;
}
closeDb();

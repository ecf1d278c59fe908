import fs from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { findUserByEmail } from "../app/modules/lp-users/lp-users.server";
import { resetTwoFactor } from "../app/modules/two-factor/two-factor.server";
import { closeDb } from "../app/modules/db/connection.server";

/**
 * npm run admin:reset-2fa -- --email E
 *
 * Lockout recovery on the server: clears the account's two-factor and recovery
 * codes, ends every session of the account, records `auth.two_factor_reset` and
 * queues a mail to the account (the running server sends it). The account sets
 * two-factor up again from its account page.
 */
if (fs.existsSync(".env")) process.loadEnvFile(".env");
const { values } = parseArgs({ options: { email: { type: "string" } } });
const email = z.string().trim().toLowerCase().email().safeParse(values.email ?? "");
if (!email.success) {
  console.error("Usage: npm run admin:reset-2fa -- --email you@example.com");
  process.exit(2);
}
const user = findUserByEmail(email.data);
if (!user) {
  console.error(`No account with the e-mail ${email.data}.`);
  closeDb();
  process.exit(1);
}
const had = resetTwoFactor(user);
console.log(
  had
    ? `Two-factor authentication cleared for ${user.email}; every session of the account has ended and the account has been e-mailed.`
    : `${user.email} had no two-factor authentication; every session of the account has ended and the account has been e-mailed.`,
);
closeDb();

import fs from "node:fs";
import { resealSecrets } from "../app/modules/two-factor/two-factor.server";
import { closeDb } from "../app/modules/db/connection.server";

/**
 * npm run admin:reseal-2fa
 *
 * The second half of a TOTP key rotation (docs/deploy.md): with the new key first
 * in TOTP_KEYS and the old one still after it, every two-factor secret is sealed
 * again with the new key (and any stored in an earlier form, v1, is sealed as v2;
 * recovery codes stored as plain SHA-256 become keyed hashes). The server does the
 * same at every start. Recovery codes hashed under the old key cannot be rehashed
 * (their codes are not kept): the count of such accounts is printed, and they keep
 * working only while the old key is listed. Exit code 1 when a secret opens with no
 * listed key.
 */
if (fs.existsSync(".env")) process.loadEnvFile(".env");
const report = resealSecrets();
console.log(`${report.resealed} of ${report.total} two-factor secrets sealed again with the first key of TOTP_KEYS.`);
if (report.pendingDropped > 0) console.log(`${report.pendingDropped} unfinished two-factor set-up(s) dropped (the account page starts a new one).`);
if (report.recoveryCodesRehashed > 0) console.log(`${report.recoveryCodesRehashed} recovery code(s) stored as plain SHA-256 are now keyed hashes.`);
if (report.accountsWithCodesUnderOldKeys > 0) {
  console.log(
    `${report.accountsWithCodesUnderOldKeys} account(s) have recovery codes hashed under an older key: they stop working when that key leaves TOTP_KEYS, so those accounts should make new codes first (account page).`,
  );
}
if (report.failed > 0) {
  console.error(`${report.failed} two-factor secret(s) open with no key of TOTP_KEYS: put the old key back, or clear those accounts' two-factor with admin:reset-2fa.`);
  process.exitCode = 1;
}
closeDb();

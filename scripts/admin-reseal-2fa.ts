import fs from "node:fs";
import { resealSecrets } from "../app/modules/two-factor/two-factor.server";
import { closeDb } from "../db/client";

/**
 * npm run admin:reseal-2fa
 *
 * The second half of a TOTP key rotation (docs/deploy.md): with the new key first
 * in TOTP_KEYS and the old one still after it, every two-factor secret is sealed
 * again with the new key. Afterwards the old key can be removed from TOTP_KEYS.
 */
if (fs.existsSync(".env")) process.loadEnvFile(".env");
const { total, resealed } = resealSecrets();
console.log(`${resealed} of ${total} two-factor secrets sealed again with the first key of TOTP_KEYS.`);
closeDb();

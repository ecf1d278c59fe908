import fs from "node:fs";
import { parseArgs } from "node:util";
import { AdminCreateInput } from "../app/modules/lp-users/schema";
import { createOrPromoteAdmin } from "../app/modules/lp-users/admin-create.server";
import { closeDb } from "../db/client";

/** npm run admin:create -- --email E --name N --password P [--totp-secret BASE32] */
if (fs.existsSync(".env")) process.loadEnvFile(".env");
const { values } = parseArgs({
  options: { email: { type: "string" }, name: { type: "string" }, password: { type: "string" }, "totp-secret": { type: "string" } },
});
const parsed = AdminCreateInput.safeParse({ ...values, totpSecret: values["totp-secret"] });
if (!parsed.success) {
  for (const issue of parsed.error.issues) {
    const flag = issue.path[0] === "totpSecret" ? "totp-secret" : issue.path.join(".");
    console.error(`--${flag}: ${issue.message}`);
  }
  console.error("\nUsage: npm run admin:create -- --email you@example.com --name 'Your Name' --password '...' [--totp-secret BASE32]");
  process.exit(2);
}
const result = await createOrPromoteAdmin(parsed.data);
console.log(
  result.created
    ? `Created admin ${parsed.data.email} (id ${result.id}).`
    : `Promoted existing user ${parsed.data.email} to admin (password unchanged).`,
);
// Never the secret itself: only that two-factor is on.
if (parsed.data.totpSecret) console.log("Two-factor authentication is on with the given secret.");
closeDb();

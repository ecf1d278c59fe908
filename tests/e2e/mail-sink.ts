import fs from "node:fs";
import path from "node:path";
import { startSmtpServer } from "../helpers/smtp";

/**
 * The e2e run's mail server (started by playwright.config.ts next to the app):
 * the app sends over real SMTP, and each message lands as a JSON file in
 * $E2E_RUN_DIR/mail for the specs to read (tests/e2e/helpers/accounts.ts).
 */
const port = Number(process.env.E2E_SMTP_PORT);
const runDir = process.env.E2E_RUN_DIR;
if (!port || !runDir) throw new Error("E2E_SMTP_PORT and E2E_RUN_DIR must be set");
const dir = path.join(runDir, "mail");
fs.mkdirSync(dir, { recursive: true });

let count = 0;
await startSmtpServer({
  port,
  onMail(mail) {
    count += 1;
    const file = path.join(dir, `${Date.now()}-${String(count).padStart(6, "0")}.json`);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(mail));
    fs.renameSync(`${file}.tmp`, file);
  },
});

import fs from "node:fs";
import path from "node:path";
import { startSmtpServer } from "../helpers/smtp";
import { recipientFile } from "./helpers/mail-files";

/**
 * The e2e run's mail server (started by playwright.config.ts next to the app):
 * the app sends over real SMTP, and each message is appended as a JSON line to
 * the file of each of its recipients, $E2E_RUN_DIR/mail/to/<address>.jsonl,
 * for the specs to read (tests/e2e/helpers/mail-files.ts).
 */
const port = Number(process.env.E2E_SMTP_PORT);
const runDir = process.env.E2E_RUN_DIR;
if (!port || !runDir) throw new Error("E2E_SMTP_PORT and E2E_RUN_DIR must be set");
fs.mkdirSync(path.dirname(recipientFile(runDir, "x@example.com")), { recursive: true });

let seq = 0;
await startSmtpServer({
  port,
  onMail(mail) {
    seq += 1;
    // One write per line, so a reader sees whole lines (it ignores an unfinished last one).
    const line = `${JSON.stringify({ seq, envelopeTo: mail.envelopeTo, headers: mail.headers, subject: mail.subject, text: mail.text })}\n`;
    for (const address of new Set(mail.envelopeTo)) fs.appendFileSync(recipientFile(runDir, address), line);
  },
});

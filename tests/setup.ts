/**
 * Runs before every test FILE: gives the file its own fresh SQLite database in
 * the OS temp directory and a known test environment, set before any app
 * module reads process.env (getEnv() parses lazily on first use).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { closeDb } from "../app/modules/db/connection.server";
import { resetEnvForTests } from "../app/modules/config/env.server";
import { flushMailer, setMailTransportForTests } from "../app/modules/mail/mail.server";
import { resetRateLimitsForTests } from "../app/modules/http/rate-limit.server";
import { TEST_BCRYPT_COST, TEST_FIRM_INBOX, TEST_SESSION_SECRET } from "./helpers/test-env";


const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), "lumen-ridge-test-"));

process.env.NODE_ENV = "test";
process.env.LOG_LEVEL = "silent";
process.env.DATABASE_PATH = path.join(tmpDir, "test.sqlite");
process.env.STORAGE_DIR = path.join(tmpDir, "uploads");
process.env.SESSION_SECRET = TEST_SESSION_SECRET;
process.env.FIRM_INBOX = TEST_FIRM_INBOX;
process.env.APP_URL = "http://localhost:3000";
process.env.TEST_BCRYPT_COST = TEST_BCRYPT_COST;
delete process.env.SMTP_URL;
delete process.env.TRUST_PROXY;

// Forget anything a previous file (same worker) left behind.
closeDb();
resetEnvForTests();
resetRateLimitsForTests();
// No SMTP: mails are logged unless a test installs a fake transport.
setMailTransportForTests(null);

afterAll(async () => {
  await flushMailer();
  closeDb();
  resetEnvForTests();
  resetRateLimitsForTests();
  setMailTransportForTests(undefined);
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { buildSync } from "esbuild";
import { E2E_BCRYPT_COST, E2E_SESSION_SECRET, E2E_TOTP_KEYS } from "./tests/e2e/helpers/secrets";
import { CHROMIUM_PATH } from "./tests/support/chromium";

/**
 * End-to-end tests against the production server and a finished build
 * (`npm run build` runs before `playwright test`; this config never builds).
 *
 * Three projects:
 * - "js":    browser specs with JavaScript on (the enhanced site);
 * - "no-js": the browser tests tagged @no-js, with JavaScript off (forms post
 *            natively): those whose behaviour can differ without JavaScript
 *            (decision 034); pure reads run once, in "js";
 * - "api":   HTTP-only specs (*.api.spec.ts, request fixture), run once.
 *
 * Each run gets its own SQLite file and storage folder, so tests never see
 * data from an earlier run. BUILD_DIR selects the build (default build/); the
 * server is the compiled one, run with plain node as `npm start` does.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const BASE_URL = `http://localhost:${PORT}`;
const BUILD_DIR = process.env.BUILD_DIR ?? "build";
/** The run's SMTP server (tests/e2e/mail-sink.ts): one port above the app's. */
const SMTP_PORT = PORT + 1;

// The config is evaluated in the runner and again in every worker: make the
// run's temp folder once and hand its name down through the environment.
const runDir = process.env.E2E_RUN_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), `lumen-ridge-e2e-${Date.now()}-`));
process.env.E2E_RUN_DIR = runDir;

/**
 * The mail sink, compiled to plain JavaScript once per run (in the runner; the
 * workers find it made): helper servers start with node, not a TypeScript loader.
 * It lives inside the project so its packages resolve from node_modules.
 */
const MAIL_SINK = path.resolve("node_modules/.cache/lumen-ridge-e2e", `mail-sink-${path.basename(runDir)}.mjs`);
if (!fs.existsSync(MAIL_SINK)) {
  buildSync({ entryPoints: ["tests/e2e/mail-sink.ts"], bundle: true, platform: "node", format: "esm", packages: "external", outfile: MAIL_SINK, logLevel: "warning" });
}

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

const API_SPECS = /.*\.api\.spec\.ts$/;

export default defineConfig({
  testDir: "tests/e2e",
  // Runs on another E2E_PORT keep their artifacts apart.
  outputDir: process.env.E2E_PORT ? `test-results/port-${PORT}` : "test-results",
  testMatch: "**/*.spec.ts",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  // The timing reporter writes each project's figures for `npm test`'s table (scripts/test.mjs).
  reporter: [["list"], ["./tests/e2e/timing-reporter.ts"]],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: BASE_URL,
    browserName: "chromium",
    viewport: { width: 1280, height: 800 },
    colorScheme: "light",
    locale: "en-US",
    // Traces cost about a third of the browser's CPU when recorded for every test: CI records them on
    // the retry of a failed test only (and keeps them with that result).
    trace: "on-first-retry",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    // The HTTP-only project first: its long serial spec (the authorization matrix, one worker for
    // about a minute) then runs beside the browser tests instead of alone at the end of the run.
    { name: "api", testMatch: API_SPECS },
    { name: "js", testIgnore: API_SPECS, use: { javaScriptEnabled: true } },
    // Only the tests tagged @no-js: those whose behaviour can differ without JavaScript (decision 034).
    { name: "no-js", testIgnore: API_SPECS, grep: /@no-js/, use: { javaScriptEnabled: false } },
  ],
  webServer: [
    {
      command: `node ${MAIL_SINK}`,
      port: SMTP_PORT,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "ignore",
      stderr: "pipe",
      env: { E2E_SMTP_PORT: String(SMTP_PORT), E2E_RUN_DIR: runDir },
    },
    {
      command: `node ${path.join(BUILD_DIR, "server/index.js")}`,
      url: `${BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        PORT: String(PORT),
        HOST: "127.0.0.1",
        APP_URL: BASE_URL,
        SESSION_SECRET: E2E_SESSION_SECRET,
        TOTP_KEYS: E2E_TOTP_KEYS,
        DATABASE_PATH: path.join(runDir, "e2e.sqlite"),
        STORAGE_DIR: path.join(runDir, "uploads"),
        LOG_LEVEL: "silent",
        TRUST_PROXY: "1",
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        // The suite sends hundreds of mails a minute; the send rate is tested in tests/integration/mail-outbox.test.ts.
        MAIL_RATE_PER_MINUTE: "100000",
        // Hundreds of uploads to every test investor would flood the mail sink: investors here start
        // with new-document e-mails off; the specs about them turn them on (the default is tested in Vitest).
        DOCUMENT_MAIL_DEFAULT: "none",
        // Playwright fills the pitch form faster than a person: no minimum fill time here. The 3-second
        // default is tested in tests/integration/pitch-deck.test.ts and hardening/spam-trap.ts.
        PITCH_MIN_FILL_SECONDS: "0",
        // New password hashes at bcrypt cost 4 (decision 036): the suite creates hundreds of accounts.
        // The production cost (12) is tested in Vitest and by the hardening run's brute-force and load sections.
        TEST_BCRYPT_COST: E2E_BCRYPT_COST,
      },
    },
  ],
});

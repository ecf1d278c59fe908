import fs from "node:fs";
import { flushAuditFloods, startAuditRetention } from "../app/modules/audit/audit.server";
import { removeStaleBulkBatches } from "../app/modules/bulk-upload/batch.server";
import { EnvError, getEnv } from "../app/modules/config/env.server";
import { startDocumentDigest } from "../app/modules/document-mail/digest.server";
import { hasAnyAdmin } from "../app/modules/lp-users/lp-users.server";
import { backfillPitchDueTimes } from "../app/modules/pitches/pitches.server";
import { startPitchSummary } from "../app/modules/pitch-summary/summary.server";
import { startCallReminders } from "../app/modules/ledger/reminders.server";
import { flushMailer, startMailWorker } from "../app/modules/mail/mail.server";
import { closePdfWorker } from "../app/modules/pdf/pdf.server";
import { flushPdfJobs, startPdfJobs } from "../app/modules/pdf-jobs/runner.server";
import { startNewsletterPurge } from "../app/modules/newsletter/purge.server";
import { resealSecrets } from "../app/modules/two-factor/two-factor.server";
import { startRegistrationPurge } from "../app/modules/lp-users/registration-purge.server";
import { log } from "../app/modules/logging/log.server";
import { reconcileStorage } from "../app/modules/storage/reconcile.server";
import { clearIncoming } from "../app/modules/storage/storage.server";
import { closeDb, getDb } from "../app/modules/db/connection.server";
import { startReplication } from "../app/modules/replication/status.server";
import { probeWatermark } from "../app/modules/watermark/availability.server";
import { startRateLimitCleanup } from "../app/modules/http/rate-limit.server";
import { createAppServer, type AppOptions } from "./app";

export type StartOptions = Pick<AppOptions, "build" | "mode" | "serveStatic">;

/**
 * Start the site: parse the environment (stop with a clear message when it is
 * bad), apply migrations (and bring stored two-factor values to their current
 * form), start the mail worker (and the weekly document
 * digest's and the daily pitch summary's checks) and the PDF job runner,
 * serve, and drain on SIGTERM.
 * The production entry (server/main.ts) and the dev server (server/index.ts)
 * differ only in the build and the static files they pass.
 */
export async function startServer({ build, mode, serveStatic }: StartOptions): Promise<void> {
  // A .env file in the working directory fills in variables not already set.
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  let env;
  try {
    env = getEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(`\n${error.message}\n\nSee .env.example for every variable and its meaning.\n`);
      process.exit(1);
    }
    throw error;
  }

  getDb(); // opens the database and applies migrations
  // Replication on (LITESTREAM_REPLICA_URL): checkpoints are Litestream's, /readyz reads its lag (decision 042).
  if (startReplication(getDb().$client).autocheckpoint !== null) {
    log("info", "Replication is on: Litestream checkpoints the WAL; /readyz reports the lag");
  }
  // Two-factor values stored in an earlier form (v1 sealed secrets, plain SHA-256 recovery codes) or under
  // a key that is no longer the first of TOTP_KEYS: brought to the current form (idempotent, decision 023).
  const resealed = resealSecrets();
  if (resealed.resealed + resealed.pendingDropped + resealed.recoveryCodesRehashed > 0) {
    log("info", "Two-factor values brought to the current form", {
      secretsResealed: resealed.resealed,
      pendingDropped: resealed.pendingDropped,
      recoveryCodesRehashed: resealed.recoveryCodesRehashed,
    });
  }
  if (resealed.failed > 0) {
    log("warn", `${resealed.failed} two-factor secret(s) open with no key of TOTP_KEYS: those accounts cannot sign in with a code until the key is listed again or admin:reset-2fa clears it.`);
  }
  // Pitches from before the response clock get the due time it would have given them.
  const backfilled = backfillPitchDueTimes();
  if (backfilled > 0) log("info", `Set the answer-by time of ${backfilled} earlier pitch(es)`);
  fs.mkdirSync(env.STORAGE_DIR, { recursive: true });
  // Uploads cut off by a previous stop never became documents; remove their pieces.
  const leftovers = await clearIncoming();
  if (leftovers > 0) log("info", `Removed ${leftovers} unfinished upload(s)`);
  // Bulk upload batches never confirmed within 24 hours, or cut off by a stop.
  await removeStaleBulkBatches({ atStart: true });
  // A stop between storing a file and recording it (or deleting a row and its file) leaves a stray file.
  await reconcileStorage();
  if (!hasAnyAdmin()) {
    log(
      "info",
      'No admin account exists yet. Create one with: npm run admin:create -- --email you@firm.example --name "Your Name" (it asks for the password; see --help)',
    );
  }
  if (env.NODE_ENV === "production" && !env.SMTP_URL) {
    log("warn", "SMTP_URL is not set: mails are only logged, and access and reset links (kept out of production logs) reach nobody.");
  }
  // The external programs (qpdf, for watermarks): probed once, a missing one logged once and shown by /readyz.
  await probeWatermark();
  const stopMail = startMailWorker();
  const stopRetention = startAuditRetention();
  const stopNewsletterPurge = startNewsletterPurge();
  const stopRegistrationPurge = startRegistrationPurge();
  const stopDigest = startDocumentDigest();
  const stopPitchSummary = startPitchSummary();
  const stopCallReminders = startCallReminders();
  // Rate limit windows that ended (table rate_limits, decision 044): at start, then every 5 minutes.
  const stopRateLimitCleanup = startRateLimitCleanup();
  // Statement and notice PDFs (issue 25): resumes the jobs a stop left running, one PDF at a time in a worker thread.
  const stopPdfJobs = startPdfJobs();

  let ready = false;
  // Timeouts (a short one for bodies other than uploads) and the per-client connection cap: server/app.ts.
  const server = createAppServer({ env, build, mode, serveStatic, isReady: () => ready });

  server.listen(env.PORT, env.HOST, () => {
    ready = true;
    log("info", `listening on http://${env.HOST}:${env.PORT}`, { mode });
  });

  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    ready = false;
    log("info", `${signal}: draining in-flight requests`);
    stopMail();
    stopRetention();
    stopNewsletterPurge();
    stopRegistrationPurge();
    stopDigest();
    stopPitchSummary();
    stopCallReminders();
    stopRateLimitCleanup();
    stopPdfJobs();
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    force.unref();
    server.close(() => {
      // The refusals of the current minute, still counted in memory (decision 030).
      flushAuditFloods();
      // The PDF in hand is finished and recorded (the next start resumes the rest), then the worker thread ends.
      void flushPdfJobs()
        .then(() => closePdfWorker())
        .catch(() => {})
        .then(() => flushMailer())
        .catch(() => {})
        .finally(() => {
          closeDb();
          process.exit(0);
        });
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

import { randomUUID } from "node:crypto";
import { latestMailTo, type SinkMail } from "./mail";
import { withDb } from "./documents";

const DAY = 24 * 60 * 60 * 1000;

/**
 * A pitch put straight into the e2e server's database (the pitch form is another
 * spec's subject): submitted `daysAgo` days ago, due 7 calendar days after (at least
 * 5 business days), so a pitch of 30 days ago is overdue and one of today is not.
 */
export function insertPitchRow(fields: { company: string; name?: string; email?: string; stage?: string; daysAgo?: number; status?: string }): string {
  const id = randomUUID();
  const createdAt = Date.now() - (fields.daysAgo ?? 0) * DAY;
  withDb(
    (db) =>
      db
        .prepare(
          "insert into pitch_submissions (id, name, email, company, stage, message, created_at, due_at, status) values (?, ?, ?, ?, ?, 'A pitch put in by a test.', ?, ?, ?)",
        )
        .run(
          id,
          fields.name ?? "Test Founder",
          fields.email ?? `founder-${id.slice(0, 8)}@startup.example`,
          fields.company,
          fields.stage ?? "Seed",
          createdAt,
          createdAt + 7 * DAY,
          fields.status ?? "new",
        ),
    { write: true },
  );
  return id;
}

/** The API's row of a pitch. */
export type PitchRow = {
  id: string;
  name: string;
  email: string;
  company: string;
  stage: string;
  status: string;
  ownerId: string | null;
  createdAt: string;
  dueAt: string;
  answeredAt: string | null;
};

/** The newest mail to `to` whose subject matches, with its headers (names lower case); waits up to 15 s. */
export function mailWithHeaders(to: string, subject: RegExp): Promise<SinkMail> {
  return latestMailTo(to, subject);
}

import { getDb } from "../../app/modules/db/connection.server";
import { emailOutbox, newsletterSubscribers, pitchSubmissions } from "../../db/schema";

/** Empty the tables these tests write to (each test file has its own database file). */
export function clearTables() {
  const db = getDb();
  db.delete(emailOutbox).run();
  db.delete(pitchSubmissions).run();
  db.delete(newsletterSubscribers).run();
}

export function allSubscribers() {
  return getDb().select().from(newsletterSubscribers).all();
}

export function allPitches() {
  return getDb().select().from(pitchSubmissions).all();
}

export function allOutbox() {
  return getDb().select().from(emailOutbox).all();
}

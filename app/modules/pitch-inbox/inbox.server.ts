import { and, asc, count, desc, eq, isNull, lte, sql, type SQL } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { lpUsers, pitchEvents, pitchSubmissions } from "../../../db/schema";
import { pitchClockCopy, pitchFilterMessages, pitchMessages, pitchStatusLabels } from "~/content/pitch-inbox";
import { audit, type AuditActor } from "../audit/audit.server";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { adminDate, FIRM_TIME_ZONE } from "../dates/format";
import { AppError } from "../http/app-error";
import { kickMailer, queueMail } from "../mail/mail.server";
import { clockState, dueDayOf, dueSoonCutoff } from "../pitch-clock/clock.server";
import type { PitchSubmission } from "../pitches/pitches.server";
import { PITCH_PAGE_SIZE, type PitchFilters, type PitchPatch, type PitchStatus, type ReplyInput } from "./schema";

/**
 * The pitch inbox (issue 16): the admins' list of pitches with its filters, paging and
 * export; a pitch's status, owner, notes and replies, each recorded in its timeline
 * (pitch_events) and in the audit trail in the same transaction. The pages and the
 * JSON endpoints call these functions.
 *
 * The list reads one window and one count, each served by an index of db/schema.ts:
 * newest first over created_at, (status, created_at) or (owner_id, created_at); the
 * 'overdue' filter walks the partial index of unanswered pitches by due_at (a pitch's
 * due time grows with its submission time, so due_at order is submission order).
 */

/** The JSON shape of a pitch (GET /api/pitches rows, PATCH /api/pitches/:id). */
export type PitchRow = {
  id: string;
  name: string;
  email: string;
  company: string;
  stage: string;
  status: PitchStatus;
  ownerId: string | null;
  createdAt: string;
  dueAt: string;
  answeredAt: string | null;
};

/** What the list reads of a pitch (the message and deck stay on the pitch page). */
const listColumns = {
  id: pitchSubmissions.id,
  name: pitchSubmissions.name,
  email: pitchSubmissions.email,
  company: pitchSubmissions.company,
  stage: pitchSubmissions.stage,
  status: pitchSubmissions.status,
  ownerId: pitchSubmissions.ownerId,
  createdAt: pitchSubmissions.createdAt,
  dueAt: pitchSubmissions.dueAt,
  answeredAt: pitchSubmissions.answeredAt,
};
export type PitchListItem = Pick<PitchSubmission, keyof typeof listColumns>;

export function toPitchRow(pitch: PitchListItem): PitchRow {
  return {
    id: pitch.id,
    name: pitch.name,
    email: pitch.email,
    company: pitch.company,
    stage: pitch.stage,
    status: pitch.status,
    ownerId: pitch.ownerId,
    createdAt: pitch.createdAt.toISOString(),
    dueAt: pitch.dueAt.toISOString(),
    answeredAt: pitch.answeredAt ? pitch.answeredAt.toISOString() : null,
  };
}

export type PitchAdmin = { id: string; name: string; email: string };

/** Every admin account (the owners a pitch can have), by name. */
export function listPitchAdmins(db: Db = getDb()): PitchAdmin[] {
  return db
    .select({ id: lpUsers.id, name: lpUsers.name, email: lpUsers.email })
    .from(lpUsers)
    .where(eq(lpUsers.isAdmin, true))
    .orderBy(asc(lpUsers.name), asc(lpUsers.email))
    .all();
}

function isAdminId(id: string, db: Pick<Db, "select">): boolean {
  return !!db
    .select({ id: lpUsers.id })
    .from(lpUsers)
    .where(and(eq(lpUsers.id, id), eq(lpUsers.isAdmin, true)))
    .get();
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function whereOf(filters: PitchFilters, at: Date): SQL | undefined {
  const t = pitchSubmissions;
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(t.status, filters.status));
  if (filters.stage) conditions.push(eq(t.stage, filters.stage));
  if (filters.owner === "none") conditions.push(isNull(t.ownerId));
  else if (filters.owner) conditions.push(eq(t.ownerId, filters.owner));
  if (filters.overdue) conditions.push(isNull(t.answeredAt), lte(t.dueAt, at));
  if (filters.q) {
    // LIKE ignores the case of ASCII letters.
    const pattern = likeContains(filters.q);
    conditions.push(sql`(${t.company} like ${pattern} escape '\\' or ${t.name} like ${pattern} escape '\\' or ${t.email} like ${pattern} escape '\\')`);
  }
  return conditions.length ? and(...conditions) : undefined;
}

function orderOf(filters: PitchFilters): SQL[] {
  const t = pitchSubmissions;
  const newest = [desc(t.createdAt), desc(sql`rowid`)];
  return filters.overdue ? [desc(t.dueAt), ...newest] : newest;
}

/** An owner filter must name an admin (or "none"). */
function checkOwnerFilter(filters: PitchFilters, db: Db): void {
  if (filters.owner && filters.owner !== "none" && !isAdminId(filters.owner, db)) {
    throw new AppError("bad_request", pitchFilterMessages.owner, { fields: { owner: [pitchFilterMessages.owner] } });
  }
}

export type PitchPage = { pitches: PitchListItem[]; page: number; pageSize: number; total: number };

/**
 * One page (PITCH_PAGE_SIZE rows) of the pitches the filters match, newest first, with
 * how many match in all. A page past the end is empty (the page says so).
 */
export function listPitches(filters: PitchFilters, db: Db = getDb(), at: Date = now()): PitchPage {
  checkOwnerFilter(filters, db);
  const page = filters.page ?? 1;
  const where = whereOf(filters, at);
  const pitches = db
    .select(listColumns)
    .from(pitchSubmissions)
    .where(where)
    .orderBy(...orderOf(filters))
    .limit(PITCH_PAGE_SIZE)
    .offset((page - 1) * PITCH_PAGE_SIZE)
    .all();
  const total = db.select({ n: count() }).from(pitchSubmissions).where(where).get()?.n ?? 0;
  return { pitches, page, pageSize: PITCH_PAGE_SIZE, total };
}

/** Pitches nobody has looked at yet (status 'new'): the overview's figure; a range of the status index. */
export function newPitchCount(db: Db = getDb()): number {
  return db.select({ n: count() }).from(pitchSubmissions).where(eq(pitchSubmissions.status, "new")).get()?.n ?? 0;
}

/**
 * Unanswered pitches due within 1 business day or already overdue (the navigation's
 * badge), and the overdue ones (the overview): two ranges of the partial due_at index.
 */
export function pitchClockCounts(db: Db = getDb(), at: Date = now()): { dueSoon: number; overdue: number } {
  const open = (until: Date) =>
    db
      .select({ n: count() })
      .from(pitchSubmissions)
      .where(and(isNull(pitchSubmissions.answeredAt), lte(pitchSubmissions.dueAt, until)))
      .get()?.n ?? 0;
  return { dueSoon: open(dueSoonCutoff(at)), overdue: open(at) };
}

/** A due day ('yyyy-MM-dd', the firm's calendar) as admin pages show dates. */
function dayText(day: string): string {
  return adminDate(`${day}T12:00:00Z`);
}

/** The clock as the list reads it: 'due in 2 business days', 'due today', 'overdue by 1 business day', 'answered on Nov 25, 2026'. */
export function clockText(pitch: { dueAt: Date; answeredAt: Date | null }, at: Date = now()): string {
  const state = clockState(pitch, at);
  switch (state.kind) {
    case "answered":
      return pitchClockCopy.answered(adminDate(state.on, FIRM_TIME_ZONE));
    case "due":
      return pitchClockCopy.due(state.inBusinessDays);
    case "due_today":
      return pitchClockCopy.dueToday;
    case "overdue":
      return pitchClockCopy.overdue(state.byBusinessDays);
  }
}

/** The day a pitch is due, as the list shows it ('Dec 02, 2026'; the firm's calendar). */
export function dueDayText(dueAt: Date): string {
  return dayText(dueDayOf(dueAt));
}

export function statusLabel(status: PitchStatus): string {
  return pitchStatusLabels[status];
}

/** A pitch by id, or the 404. */
export function findPitch(id: string, db: Pick<Db, "select"> = getDb()): PitchSubmission {
  const pitch = id.length <= 100 ? db.select().from(pitchSubmissions).where(eq(pitchSubmissions.id, id)).get() : undefined;
  if (!pitch) throw new AppError("not_found", pitchMessages.notFound);
  return pitch;
}

export type PitchEvent = typeof pitchEvents.$inferSelect;

/** A pitch's timeline, oldest first. */
export function pitchTimeline(pitchId: string, db: Db = getDb()): PitchEvent[] {
  return db.select().from(pitchEvents).where(eq(pitchEvents.pitchId, pitchId)).orderBy(asc(pitchEvents.id)).all();
}

type Actor = Pick<AuditActor, "id" | "email">;

function target(pitch: PitchSubmission) {
  return { type: "pitch" as const, id: pitch.id, label: pitch.company };
}

/**
 * Change a pitch's status, its owner (an admin, or null for nobody), or both. Any status
 * move is allowed; each change is a timeline event and an audit event, written with the
 * change. Setting what is already set records nothing.
 */
export function updatePitch(admin: Actor, id: string, patch: PitchPatch, db: Db = getDb()): PitchSubmission {
  if (patch.status === undefined && patch.ownerId === undefined) {
    throw new AppError("bad_request", pitchMessages.nothingToChange, { fields: { body: [pitchMessages.nothingToChange] } });
  }
  return db.transaction((tx) => {
    const pitch = findPitch(id, tx);
    if (patch.ownerId && !isAdminId(patch.ownerId, tx)) {
      throw new AppError("bad_request", pitchMessages.owner, { fields: { ownerId: [pitchMessages.owner] } });
    }
    const at = now();
    const actor = { actorId: admin.id, actorEmail: admin.email };
    const set: Partial<Pick<PitchSubmission, "status" | "ownerId">> = {};
    if (patch.status !== undefined && patch.status !== pitch.status) {
      set.status = patch.status;
      tx.insert(pitchEvents).values({ pitchId: pitch.id, at, kind: "status", ...actor, fromValue: pitch.status, toValue: patch.status }).run();
      audit(tx, "pitch.status_changed", { actor: admin, target: target(pitch), details: { from: pitch.status, to: patch.status } });
    }
    if (patch.ownerId !== undefined && patch.ownerId !== pitch.ownerId) {
      set.ownerId = patch.ownerId;
      tx.insert(pitchEvents).values({ pitchId: pitch.id, at, kind: "owner", ...actor, fromValue: pitch.ownerId, toValue: patch.ownerId }).run();
      audit(tx, "pitch.owner_changed", { actor: admin, target: target(pitch), details: { from: pitch.ownerId, to: patch.ownerId } });
    }
    if (Object.keys(set).length === 0) return pitch;
    return tx.update(pitchSubmissions).set(set).where(eq(pitchSubmissions.id, pitch.id)).returning().get();
  });
}

/** Add an internal note (admins only see it) to a pitch's timeline. */
export function addPitchNote(admin: Actor, id: string, note: string, db: Db = getDb()): PitchEvent {
  return db.transaction((tx) => {
    const pitch = findPitch(id, tx);
    const event = tx
      .insert(pitchEvents)
      .values({ pitchId: pitch.id, at: now(), kind: "note", actorId: admin.id, actorEmail: admin.email, body: note })
      .returning()
      .get();
    audit(tx, "pitch.note_added", { actor: admin, target: target(pitch), details: { eventId: event.id } });
    return event;
  });
}

/**
 * Send a reply to the founder: queued in the outbox from MAIL_FROM with Reply-To the
 * firm's inbox, kept in the timeline, audited; the first reply stops the clock.
 */
export function sendPitchReply(admin: Actor, id: string, reply: ReplyInput, db: Db = getDb()): { event: PitchEvent; pitch: PitchSubmission } {
  const result = db.transaction((tx) => {
    const pitch = findPitch(id, tx);
    const at = now();
    const event = tx
      .insert(pitchEvents)
      .values({ pitchId: pitch.id, at, kind: "reply", actorId: admin.id, actorEmail: admin.email, subject: reply.subject, body: reply.body })
      .returning()
      .get();
    const answered = pitch.answeredAt
      ? pitch
      : tx.update(pitchSubmissions).set({ answeredAt: at }).where(eq(pitchSubmissions.id, pitch.id)).returning().get();
    queueMail(tx, { to: pitch.email, subject: reply.subject, text: reply.body, headers: { "Reply-To": getEnv().FIRM_INBOX } });
    audit(tx, "pitch.replied", {
      actor: admin,
      target: target(pitch),
      details: { eventId: event.id, to: pitch.email, subject: reply.subject, first: !pitch.answeredAt },
    });
    return { event, pitch: answered };
  });
  kickMailer();
  return result;
}

/** JSON of a sent reply (POST /api/pitches/:id/replies). */
export function toReplyRead(event: PitchEvent) {
  return { id: event.id, pitchId: event.pitchId, subject: event.subject ?? "", body: event.body ?? "", sentAt: event.at.toISOString() };
}

/**
 * Every pitch the filters match (the page is ignored), in the list's order, in batches
 * read one query at a time, for a streamed CSV. The export is recorded in the trail first.
 */
export function exportPitches(admin: Actor, filters: PitchFilters, batchSize = 2000, db: Db = getDb(), at: Date = now()): Generator<PitchSubmission[]> {
  checkOwnerFilter(filters, db);
  const { page: _page, ...matching } = filters;
  audit(db, "pitch.exported", {
    actor: admin,
    target: { type: "pitch", label: "pitches" },
    details: { filters: matching },
  });
  return exportBatches(matching, batchSize, db, at);
}

function* exportBatches(filters: PitchFilters, batchSize: number, db: Db, at: Date): Generator<PitchSubmission[]> {
  const where = whereOf(filters, at);
  for (let offset = 0; ; offset += batchSize) {
    const batch = db.select().from(pitchSubmissions).where(where).orderBy(...orderOf(filters)).limit(batchSize).offset(offset).all();
    if (batch.length > 0) yield batch;
    if (batch.length < batchSize) return;
  }
}

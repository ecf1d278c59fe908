import { and, asc, eq, inArray, max, sql } from "drizzle-orm";
import { z } from "~/modules/validation/z";
import { ledgerLineLabels, ledgerMails, ledgerMessages, ledgerReference } from "~/content/capital";
import { redraftMessages } from "~/content/ledger-pages";
import { getDb, type Db } from "~/modules/db/connection.server";
import { CALL_LINE_TYPES, DISTRIBUTION_LINE_TYPES, callPayments, entities, entityMembers, ledgerAllocations, ledgerEntries, ledgerLines, lpUsers } from "../../../db/schema";
import { audit } from "../audit/audit.server";
import type { LpUser } from "../auth/session.server";
import { allocateLines } from "../capital/allocation";
import { calendarDateSchema } from "../capital/calendar-date";
import { formatDecimal, parseAmount, toDecimalString } from "../capital/money";
import { commitmentsInForce } from "../commitments/commitments.server";
import { getEnv } from "../config/env.server";
import { now } from "../config/clock.server";
import { findFundBySlug, listFunds, type Fund } from "../funds/funds.server";
import { AppError, type FieldErrors } from "../http/app-error";
import { kickMailer, queueMails } from "../mail/mail.server";
import { businessDaysBetween, firmDay } from "../pitch-clock/clock.server";
import { queuePdfJob } from "../pdf-jobs/jobs.server";
import { kickPdfJobs } from "../pdf-jobs/kick.server";
import { assertQuarterOpen } from "../statements/lock.server";

/**
 * The fund ledger (issue 24 §4–5, DESIGN.md §10): capital calls and
 * distributions, one table with a kind. An admin drafts an entry (a date, and
 * lines each a type and a fund-level amount); every line is split on its own
 * over the commitments in force on the entry's date by the largest-remainder
 * rule (capital/allocation.ts) and the draft shows the split. Publishing
 * splits again (the commitments may have changed since), fixes the entry,
 * gives it the fund's next number of its kind (Call 1, Distribution 1, …) and
 * mails every member of each entity its notice. A published entry is never
 * edited: a mistake is corrected by a new entry marked `correctionOf`.
 * Payments against a published call are recorded per entity, up to what is
 * still due. Every change writes its audit row in the same transaction.
 */

export type LedgerKind = "call" | "distribution";

/** ILPA's best practice: at least 10 business days between a call's notice and its due date. */
export const CALL_NOTICE_BUSINESS_DAYS = 10;
/** The most lines one entry may have. */
const MAX_LINES = 20;

const description = z.string().trim().max(200, ledgerMessages.description).optional();

export const createCallSchema = z.object({
  fund: z.string({ error: ledgerMessages.fund }).trim().min(1, ledgerMessages.fund).max(64, ledgerMessages.fund),
  noticeDate: calendarDateSchema(ledgerMessages.date),
  dueDate: calendarDateSchema(ledgerMessages.date),
  lines: z
    .array(z.object({ type: z.enum(CALL_LINE_TYPES, { error: ledgerMessages.callType }), amount: z.unknown(), description }), { error: ledgerMessages.lines })
    .min(1, ledgerMessages.lines)
    .max(MAX_LINES, ledgerMessages.tooManyLines),
  correctionOf: z.string().trim().max(64).optional(),
});
export type CreateCallInput = z.output<typeof createCallSchema>;

export const createDistributionSchema = z.object({
  fund: z.string({ error: ledgerMessages.fund }).trim().min(1, ledgerMessages.fund).max(64, ledgerMessages.fund),
  paymentDate: calendarDateSchema(ledgerMessages.date),
  lines: z
    .array(
      z.object({ type: z.enum(DISTRIBUTION_LINE_TYPES, { error: ledgerMessages.distributionType }), amount: z.unknown(), recallable: z.boolean().optional(), description }),
      { error: ledgerMessages.lines },
    )
    .min(1, ledgerMessages.lines)
    .max(MAX_LINES, ledgerMessages.tooManyLines),
  correctionOf: z.string().trim().max(64).optional(),
});
export type CreateDistributionInput = z.output<typeof createDistributionSchema>;

export const paymentSchema = z.object({
  entityId: z.string({ error: ledgerMessages.entityId }).trim().min(1, ledgerMessages.entityId).max(64, ledgerMessages.entityId),
  amount: z.unknown(),
  receivedOn: calendarDateSchema(ledgerMessages.date),
});
export type PaymentInput = z.output<typeof paymentSchema>;

type Entry = typeof ledgerEntries.$inferSelect;
type Tx = Pick<Db, "select" | "insert" | "update" | "delete">;

/** An entry as the JSON answers it (amounts as decimal strings in the fund's currency). */
export type LedgerEntryRead = {
  id: string;
  kind: LedgerKind;
  fund: string;
  currency: string;
  status: "draft" | "published";
  number: number | null;
  reference: string | null;
  date: string;
  noticeDate?: string;
  dueDate?: string;
  paymentDate?: string;
  correctionOf: string | null;
  total: string;
  lines: { type: string; amount: string; description?: string; recallable?: boolean }[];
  allocations: { entityId: string; entityName: string; amount: string; lines: { type: string; amount: string }[] }[];
  /** A call due less than CALL_NOTICE_BUSINESS_DAYS business days after its notice. */
  warnings: "short_notice"[];
};

function fieldError(field: string, message: string, code: "bad_request" | "conflict" = "bad_request"): AppError {
  return new AppError(code, message, { fields: { [field]: [message] } });
}

function fundOf(slug: string, db: Pick<Db, "select">): Fund {
  const fund = findFundBySlug(slug, db);
  if (!fund) throw fieldError("fund", ledgerMessages.fund);
  return fund;
}

/** Each line's amount in minor units (400 on `lines.N.amount`), and a recallable flag only on a return of capital. */
function parseLines(fund: Fund, lines: { type: string; amount: unknown; description?: string | undefined; recallable?: boolean | undefined }[]) {
  const fields: FieldErrors = {};
  const parsed = lines.map((line, i) => {
    const amount = parseAmount(line.amount, fund.currency);
    if (!amount.ok) (fields[`lines.${i}.amount`] ??= []).push(amount.message);
    else if (amount.minor > BigInt(Number.MAX_SAFE_INTEGER)) (fields[`lines.${i}.amount`] ??= []).push(ledgerMessages.tooLarge);
    if (line.recallable && line.type !== "return_of_capital") (fields[`lines.${i}.recallable`] ??= []).push(ledgerMessages.recallable);
    return { type: line.type, amount: amount.ok ? amount.minor : 0n, description: line.description || null, recallable: !!line.recallable };
  });
  const first = Object.values(fields)[0]?.[0];
  if (first) throw new AppError("bad_request", first, { fields });
  return parsed;
}

/** The entry this one corrects: a published entry of the same fund and kind (400 otherwise). */
function checkCorrection(db: Pick<Db, "select">, fund: Fund, kind: LedgerKind, correctionOf: string | undefined): string | null {
  if (!correctionOf) return null;
  const target = db.select().from(ledgerEntries).where(eq(ledgerEntries.id, correctionOf)).get();
  if (!target || target.fundId !== fund.id || target.kind !== kind || target.status !== "published") throw fieldError("correctionOf", ledgerMessages.correctionOf);
  return target.id;
}

/** Split an entry's lines over the commitments in force on its date, and store the shares (replacing any). */
function allocate(tx: Tx, entry: Pick<Entry, "id" | "fundId" | "date">, lines: { amount: bigint }[]) {
  const shares = commitmentsInForce(entry.fundId, entry.date, tx).map((c) => ({ id: c.entityId, weight: c.amountMinor }));
  if (!shares.some((s) => s.weight > 0n)) throw new AppError("bad_request", ledgerMessages.noCommitments, { fields: { fund: [ledgerMessages.noCommitments] } });
  const split = allocateLines(lines, shares);
  tx.delete(ledgerAllocations).where(eq(ledgerAllocations.entryId, entry.id)).run();
  const rows = [...split].flatMap(([entityId, { lines: parts }]) =>
    parts.map((amount, position) => ({ entryId: entry.id, entityId, position, amountMinor: Number(amount) })),
  );
  for (let i = 0; i < rows.length; i += 500) tx.insert(ledgerAllocations).values(rows.slice(i, i + 500)).run();
}

/** An entry's lines (replacing any) and each entity's share of them. */
function writeLines(tx: Tx, entry: Pick<Entry, "id" | "fundId" | "date">, lines: ReturnType<typeof parseLines>) {
  tx.delete(ledgerLines).where(eq(ledgerLines.entryId, entry.id)).run();
  tx.insert(ledgerLines)
    .values(lines.map((line, position) => ({ entryId: entry.id, position, type: line.type, amountMinor: Number(line.amount), description: line.description, recallable: line.recallable })))
    .run();
  allocate(tx, entry, lines);
}

/** An entry's dates under their form fields (the closed-quarter rule's error shows at the date). */
function dateFields(kind: LedgerKind, dates: { date: string; dueDate: string | null }): Record<string, string | null> {
  return kind === "call" ? { noticeDate: dates.date, dueDate: dates.dueDate } : { paymentDate: dates.date };
}

function insertEntry(
  admin: Pick<LpUser, "id" | "email">,
  kind: LedgerKind,
  fund: Fund,
  dates: { date: string; dueDate: string | null },
  lines: ReturnType<typeof parseLines>,
  correctionOf: string | null,
  db: Db,
): string {
  return db.transaction((tx) => {
    // Nothing may be dated inside a published quarter (issue 25 §2): 409 unless it was reopened.
    assertQuarterOpen(tx, fund.id, dateFields(kind, dates));
    const entry = tx
      .insert(ledgerEntries)
      .values({ fundId: fund.id, kind, date: dates.date, dueDate: dates.dueDate, correctionOf, createdBy: admin.id })
      .returning()
      .get();
    writeLines(tx, entry, lines);
    audit(tx, kind === "call" ? "capital_call.drafted" : "distribution.drafted", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "ledger_entry", id: entry.id, label: fund.name },
      details: { fund: fund.slug, date: dates.date, total: toDecimalString(lines.reduce((s, l) => s + l.amount, 0n), fund.currency), correctionOf },
    });
    return entry.id;
  });
}

/** Draft a capital call (400 for what cannot be used, or a fund with no commitments in force on the notice date). */
export function draftCall(admin: Pick<LpUser, "id" | "email">, input: CreateCallInput, db: Db = getDb()): LedgerEntryRead {
  const fund = fundOf(input.fund, db);
  const lines = parseLines(fund, input.lines);
  if (input.dueDate < input.noticeDate) throw fieldError("dueDate", ledgerMessages.dueBeforeNotice);
  const correctionOf = checkCorrection(db, fund, "call", input.correctionOf);
  return readEntry(insertEntry(admin, "call", fund, { date: input.noticeDate, dueDate: input.dueDate }, lines, correctionOf, db), db);
}

/** Draft a distribution (the same rules, on the payment date). */
export function draftDistribution(admin: Pick<LpUser, "id" | "email">, input: CreateDistributionInput, db: Db = getDb()): LedgerEntryRead {
  const fund = fundOf(input.fund, db);
  const lines = parseLines(fund, input.lines);
  const correctionOf = checkCorrection(db, fund, "distribution", input.correctionOf);
  return readEntry(insertEntry(admin, "distribution", fund, { date: input.paymentDate, dueDate: null }, lines, correctionOf, db), db);
}

/** A draft's new dates, lines and correction: a call's or a distribution's input, as drafting takes it. */
export type RedraftInput = { kind: "call"; input: CreateCallInput } | { kind: "distribution"; input: CreateDistributionInput };

/**
 * Change a draft (issue 24 §4: "a draft can be changed"): its dates, lines and
 * correction are replaced and its lines split again over the commitments in
 * force on its (new) date. The fund stays the draft's own (400 on `fund`
 * otherwise); a published entry is a 409, as for deleting; audited.
 */
export function redraftEntry(admin: Pick<LpUser, "id" | "email">, id: string, change: RedraftInput, db: Db = getDb()): LedgerEntryRead {
  db.transaction((tx) => {
    const entry = findEntry(id, tx, change.kind);
    if (entry.status === "published") throw new AppError("conflict", ledgerMessages.published);
    const fund = listFunds(tx).find((f) => f.id === entry.fundId)!;
    if (change.input.fund !== fund.slug) throw fieldError("fund", redraftMessages.otherFund(fund.name));
    const lines = parseLines(fund, change.input.lines);
    const dates = change.kind === "call" ? { date: change.input.noticeDate, dueDate: change.input.dueDate } : { date: change.input.paymentDate, dueDate: null };
    if (dates.dueDate !== null && dates.dueDate < dates.date) throw fieldError("dueDate", ledgerMessages.dueBeforeNotice);
    const correctionOf = checkCorrection(tx, fund, change.kind, change.input.correctionOf);
    assertQuarterOpen(tx, fund.id, dateFields(change.kind, dates));
    tx.update(ledgerEntries).set({ date: dates.date, dueDate: dates.dueDate, correctionOf }).where(eq(ledgerEntries.id, id)).run();
    writeLines(tx, { id, fundId: entry.fundId, date: dates.date }, lines);
    audit(tx, change.kind === "call" ? "capital_call.redrafted" : "distribution.redrafted", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "ledger_entry", id, label: fund.name },
      details: {
        fund: fund.slug,
        date: dates.date,
        previousDate: entry.date,
        total: toDecimalString(lines.reduce((s, l) => s + l.amount, 0n), fund.currency),
        lines: lines.length,
        correctionOf,
      },
    });
  });
  return readEntry(id, db, change.kind);
}

function findEntry(id: string, db: Pick<Db, "select">, kind?: LedgerKind): Entry {
  const entry = db.select().from(ledgerEntries).where(eq(ledgerEntries.id, id)).get();
  if (!entry || (kind && entry.kind !== kind)) throw new AppError("not_found", ledgerMessages.notFound);
  return entry;
}

/**
 * An entry's own fields as they are read (the admin's JSON and pages, an investor's notice): its
 * fund, status, number and reference, its dates by kind, its total and its lines.
 */
export function entryHead(entry: Entry, fund: Pick<Fund, "slug" | "currency">, lines: (typeof ledgerLines.$inferSelect)[]) {
  const money = (minor: number | bigint) => toDecimalString(BigInt(minor), fund.currency);
  const dates = entry.kind === "call" ? { noticeDate: entry.date, dueDate: entry.dueDate ?? entry.date } : { paymentDate: entry.date };
  return {
    id: entry.id,
    kind: entry.kind,
    fund: fund.slug,
    currency: fund.currency,
    status: entry.status,
    number: entry.number,
    reference: entry.number === null ? null : ledgerReference(entry.kind, entry.number),
    date: entry.date,
    ...dates,
    correctionOf: entry.correctionOf,
    total: money(lines.reduce((sum, l) => sum + BigInt(l.amountMinor), 0n)),
    lines: lines.map((l) => ({
      type: l.type,
      amount: money(l.amountMinor),
      ...(l.description ? { description: l.description } : {}),
      ...(entry.kind === "distribution" ? { recallable: l.recallable } : {}),
    })),
  };
}

/** An entry as read: its lines, and each entity's share of each line. */
export function readEntry(id: string, db: Pick<Db, "select"> = getDb(), kind?: LedgerKind): LedgerEntryRead {
  const entry = findEntry(id, db, kind);
  const fund = listFunds(db).find((f) => f.id === entry.fundId)!;
  const money = (minor: number | bigint) => toDecimalString(BigInt(minor), fund.currency);
  const lines = db.select().from(ledgerLines).where(eq(ledgerLines.entryId, id)).orderBy(asc(ledgerLines.position)).all();
  const shares = db
    .select({ entityId: ledgerAllocations.entityId, position: ledgerAllocations.position, amountMinor: ledgerAllocations.amountMinor, name: entities.name })
    .from(ledgerAllocations)
    .innerJoin(entities, eq(entities.id, ledgerAllocations.entityId))
    .where(eq(ledgerAllocations.entryId, id))
    .orderBy(sql`${entities.name} collate nocase`, asc(ledgerAllocations.entityId), asc(ledgerAllocations.position))
    .all();
  const byEntity = new Map<string, { name: string; parts: { position: number; amount: number }[] }>();
  for (const share of shares) {
    const entity = byEntity.get(share.entityId) ?? { name: share.name, parts: [] };
    entity.parts.push({ position: share.position, amount: share.amountMinor });
    byEntity.set(share.entityId, entity);
  }
  const typeAt = new Map(lines.map((l) => [l.position, l.type]));
  const shortNotice = entry.kind === "call" && businessDaysBetween(entry.date, entry.dueDate ?? entry.date) < CALL_NOTICE_BUSINESS_DAYS;
  return {
    ...entryHead(entry, fund, lines),
    allocations: [...byEntity].map(([entityId, { name, parts }]) => ({
      entityId,
      entityName: name,
      amount: money(parts.reduce((sum, p) => sum + BigInt(p.amount), 0n)),
      lines: parts.map((p) => ({ type: typeAt.get(p.position) ?? "other", amount: money(p.amount) })),
    })),
    warnings: shortNotice ? ["short_notice"] : [],
  };
}

/** Delete a draft (409 once published: a published entry is corrected, never removed). */
export function deleteDraft(admin: Pick<LpUser, "id" | "email">, id: string, kind: LedgerKind, db: Db = getDb()): void {
  db.transaction((tx) => {
    const entry = findEntry(id, tx, kind);
    if (entry.status === "published") throw new AppError("conflict", ledgerMessages.published);
    tx.delete(ledgerEntries).where(eq(ledgerEntries.id, id)).run();
    audit(tx, kind === "call" ? "capital_call.draft_deleted" : "distribution.draft_deleted", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "ledger_entry", id, label: null },
      details: { date: entry.date },
    });
  });
}

/** The members of these entities who may read (approved accounts), for the notice mails. */
function noticeRecipients(db: Pick<Db, "select">, entityIds: string[]) {
  if (!entityIds.length) return [];
  return db
    .select({ entityId: entityMembers.entityId, email: lpUsers.email, name: lpUsers.name })
    .from(entityMembers)
    .innerJoin(lpUsers, eq(lpUsers.id, entityMembers.userId))
    .where(and(inArray(entityMembers.entityId, entityIds), eq(lpUsers.status, "approved")))
    .all();
}

/**
 * Publish a draft: split it again over the commitments in force, fix it, give
 * it its number, and queue a notice mail to every member of each entity (the
 * fund, the amount, the date, the breakdown by type and a link to the notice
 * page; never bank details). Publishing again changes and sends nothing.
 */
export function publishEntry(admin: Pick<LpUser, "id" | "email">, id: string, kind: LedgerKind, db: Db = getDb()): { status: "published"; changed: boolean } {
  const changed = db.transaction((tx) => {
    const entry = findEntry(id, tx, kind);
    if (entry.status === "published") return false;
    assertQuarterOpen(tx, entry.fundId, [entry.date, entry.dueDate]);
    const lines = tx.select().from(ledgerLines).where(eq(ledgerLines.entryId, id)).orderBy(asc(ledgerLines.position)).all();
    allocate(
      tx,
      entry,
      lines.map((l) => ({ amount: BigInt(l.amountMinor) })),
    );
    const last = tx
      .select({ n: max(ledgerEntries.number) })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.fundId, entry.fundId), eq(ledgerEntries.kind, kind)))
      .get();
    const number = (last?.n ?? 0) + 1;
    tx.update(ledgerEntries).set({ status: "published", number, publishedAt: now() }).where(eq(ledgerEntries.id, id)).run();
    const read = readEntry(id, tx, kind);
    const fund = listFunds(tx).find((f) => f.id === entry.fundId)!;
    const url = `${getEnv().APP_URL}/lp/notices/${id}`;
    const byEntity = new Map(read.allocations.map((a) => [a.entityId, a]));
    const money = (amount: string) => formatDecimal(amount, fund.currency);
    const mails = noticeRecipients(tx, [...byEntity.keys()]).map((member) => {
      const share = byEntity.get(member.entityId)!;
      const notice = ledgerMails.notice({
        kind,
        fundName: fund.name,
        reference: read.reference!,
        entityName: share.entityName,
        name: member.name,
        amount: money(share.amount),
        date: read.date,
        dueDate: read.dueDate,
        lines: share.lines.map((line) => ({ label: ledgerLineLabels[line.type] ?? line.type, amount: money(line.amount) })),
        url,
      });
      return { to: member.email, ...notice };
    });
    queueMails(tx, mails);
    audit(tx, kind === "call" ? "capital_call.published" : "distribution.published", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "ledger_entry", id, label: `${fund.name} · ${read.reference}` },
      details: { fund: fund.slug, number, total: read.total, entities: byEntity.size, mails: mails.length },
    });
    // Each entity's notice PDF, made by the background job (issue 25 §3) once this commits.
    queuePdfJob(tx, "notices", id, byEntity.size);
    return true;
  });
  if (changed) {
    kickMailer();
    kickPdfJobs();
  }
  return { status: "published", changed };
}

/** What each entity owes on a call and has paid: due, received, outstanding (minor units). */
export function callBalances(id: string, db: Pick<Db, "select"> = getDb()) {
  const due = db
    .select({ entityId: ledgerAllocations.entityId, due: sql<number>`sum(${ledgerAllocations.amountMinor})` })
    .from(ledgerAllocations)
    .where(eq(ledgerAllocations.entryId, id))
    .groupBy(ledgerAllocations.entityId)
    .all();
  const paid = db
    .select({ entityId: callPayments.entityId, received: sql<number>`sum(${callPayments.amountMinor})` })
    .from(callPayments)
    .where(eq(callPayments.entryId, id))
    .groupBy(callPayments.entityId)
    .all();
  const received = new Map(paid.map((p) => [p.entityId, BigInt(p.received)]));
  return due.map((d) => {
    const got = received.get(d.entityId) ?? 0n;
    return { entityId: d.entityId, due: BigInt(d.due), received: got, outstanding: BigInt(d.due) - got };
  });
}

export type PaymentState = "paid" | "partly_paid" | "due" | "overdue";

/** A call's state for one entity, on the firm's calendar day `today` (Europe/Zurich). */
export function paymentState(balance: { due: bigint; received: bigint }, dueDate: string, today: string): PaymentState {
  if (balance.received >= balance.due) return "paid";
  if (today > dueDate) return "overdue";
  return balance.received > 0n ? "partly_paid" : "due";
}

/** A call with each entity's due, received, outstanding and state (GET /api/capital-calls/:id). */
export function readCall(id: string, db: Pick<Db, "select"> = getDb(), at: Date = now()) {
  const read = readEntry(id, db, "call");
  const today = firmDay(at);
  const balances = new Map(callBalances(id, db).map((b) => [b.entityId, b]));
  const money = (minor: bigint) => toDecimalString(minor, read.currency);
  return {
    ...read,
    entities: read.allocations.map((a) => {
      const b = balances.get(a.entityId) ?? { due: 0n, received: 0n, outstanding: 0n };
      return {
        entityId: a.entityId,
        entityName: a.entityName,
        due: money(b.due),
        received: money(b.received),
        outstanding: money(b.outstanding),
        state: read.status === "draft" ? null : paymentState(b, read.dueDate!, today),
      };
    }),
  };
}

/**
 * Record a payment received against a published call (409 for a draft; 400
 * for an entity the call does not ask, or more than it still owes), audited.
 */
export function recordPayment(admin: Pick<LpUser, "id" | "email">, id: string, input: PaymentInput, db: Db = getDb()) {
  return db.transaction((tx) => {
    const entry = findEntry(id, tx, "call");
    if (entry.status !== "published") throw new AppError("conflict", ledgerMessages.paymentOnDraft);
    const fund = listFunds(tx).find((f) => f.id === entry.fundId)!;
    const amount = parseAmount(input.amount, fund.currency);
    if (!amount.ok) throw fieldError("amount", amount.message);
    // Money received before the call was noticed is not a payment of it (and would skew the IRR).
    if (input.receivedOn < entry.date) throw fieldError("receivedOn", ledgerMessages.beforeNotice);
    const balance = callBalances(id, tx).find((b) => b.entityId === input.entityId);
    if (!balance) throw fieldError("entityId", ledgerMessages.notCalled);
    if (amount.minor > balance.outstanding) throw fieldError("amount", ledgerMessages.overpaid(toDecimalString(balance.outstanding, fund.currency)));
    assertQuarterOpen(tx, entry.fundId, { receivedOn: input.receivedOn });
    const row = tx
      .insert(callPayments)
      .values({ entryId: id, entityId: input.entityId, amountMinor: Number(amount.minor), receivedOn: input.receivedOn, createdBy: admin.id })
      .returning()
      .get();
    audit(tx, "capital_call.payment_recorded", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "ledger_entry", id, label: `${fund.name} · ${entry.number === null ? "" : ledgerReference("call", entry.number)}` },
      details: { entityId: input.entityId, amount: toDecimalString(amount.minor, fund.currency), receivedOn: input.receivedOn },
    });
    return {
      id: row.id,
      callId: id,
      entityId: row.entityId,
      amount: toDecimalString(amount.minor, fund.currency),
      receivedOn: row.receivedOn,
      outstanding: toDecimalString(balance.outstanding - amount.minor, fund.currency),
    };
  });
}

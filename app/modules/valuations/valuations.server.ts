import { and, eq, inArray, sql } from "drizzle-orm";
import { valuationMessages } from "~/content/capital";
import { getDb, type Db } from "~/modules/db/connection.server";
import { z } from "~/modules/validation/z";
import { commitments, valuations } from "../../../db/schema";
import { audit } from "../audit/audit.server";
import type { LpUser } from "../auth/session.server";
import { calendarDateSchema } from "../capital/calendar-date";
import { parseSignedAmount, toDecimalString } from "../capital/money";
import { findFundBySlug } from "../funds/funds.server";
import { AppError, type FieldErrors } from "../http/app-error";
import { assertQuarterOpen } from "../statements/lock.server";

/**
 * Valuations (issue 24 §7): each entity's NAV in a fund at a date (a quarter
 * end), as the fund administrator reports it. One import is one fund and one
 * date, all or nothing: every row is checked (an entity with a commitment in
 * the fund, an amount in the fund's currency, each entity once) and every
 * error is reported per row before anything is written. A value for a date
 * that already has one replaces it (a corrected report).
 */

/** The most values one import may carry (2,000 entities a fund with room to spare). */
export const MAX_VALUATIONS = 10_000;

export const valuationsSchema = z.object({
  fund: z.string({ error: valuationMessages.fund }).trim().min(1, valuationMessages.fund).max(64, valuationMessages.fund),
  date: calendarDateSchema(valuationMessages.date),
  values: z
    .array(z.object({ entityId: z.string({ error: valuationMessages.entityId }).trim().min(1, valuationMessages.entityId).max(64, valuationMessages.entityId), nav: z.unknown() }), {
      error: valuationMessages.values,
    })
    .min(1, valuationMessages.values)
    .max(MAX_VALUATIONS, valuationMessages.tooMany),
});
export type ValuationsInput = z.output<typeof valuationsSchema>;

/** Import a fund's NAVs at a date (400 with an error per row, nothing written), audited as one event. */
export function importValuations(admin: Pick<LpUser, "id" | "email">, input: ValuationsInput, db: Db = getDb()) {
  const fund = findFundBySlug(input.fund, db);
  if (!fund) throw new AppError("bad_request", valuationMessages.fund, { fields: { fund: [valuationMessages.fund] } });
  const committed = new Set(
    db
      .select({ entityId: commitments.entityId })
      .from(commitments)
      .where(and(eq(commitments.fundId, fund.id), inArray(commitments.entityId, [...new Set(input.values.map((v) => v.entityId))])))
      .all()
      .map((r) => r.entityId),
  );
  const fields: FieldErrors = {};
  const seen = new Set<string>();
  const rows = input.values.map((value, i) => {
    const nav = parseSignedAmount(value.nav, fund.currency);
    if (!nav.ok) (fields[`values.${i}.nav`] ??= []).push(nav.message);
    else if (nav.minor < 0n) (fields[`values.${i}.nav`] ??= []).push(valuationMessages.negative);
    if (seen.has(value.entityId)) (fields[`values.${i}.entityId`] ??= []).push(valuationMessages.duplicate);
    else if (!committed.has(value.entityId)) (fields[`values.${i}.entityId`] ??= []).push(valuationMessages.notCommitted);
    seen.add(value.entityId);
    return { fundId: fund.id, entityId: value.entityId, date: input.date, navMinor: nav.ok ? Number(nav.minor) : 0 };
  });
  const first = Object.values(fields)[0]?.[0];
  if (first) throw new AppError("bad_request", first, { fields });
  db.transaction((tx) => {
    // Nothing may be dated inside a published quarter (issue 25 §2): 409 unless it was reopened.
    assertQuarterOpen(tx, fund.id, { date: input.date });
    for (let i = 0; i < rows.length; i += 500) {
      tx.insert(valuations)
        .values(rows.slice(i, i + 500))
        .onConflictDoUpdate({ target: [valuations.fundId, valuations.entityId, valuations.date], set: { navMinor: sql`excluded.nav_minor` } })
        .run();
    }
    audit(tx, "valuation.imported", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "fund", id: fund.id, label: fund.name },
      details: { fund: fund.slug, date: input.date, values: rows.length, total: toDecimalString(rows.reduce((s, r) => s + BigInt(r.navMinor), 0n), fund.currency) },
    });
  });
  return { fund: fund.slug, date: input.date, count: rows.length };
}

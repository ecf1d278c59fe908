import { asc, eq } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { funds } from "../../../db/schema";
import type { FundAccessMode, FundStatus } from "./constants";

/**
 * The funds (issue 24, decision 038): rows of the funds table, seeded by
 * migration 0017. A fund is named by its slug in URLs and in SPEC's bodies
 * (`fundId`); what differs from one fund to another (its access mode, …) is
 * read from its row, not decided by comparing slugs.
 */

export type Fund = typeof funds.$inferSelect;

// The columns' values are the UI's constants (a change to one fails to compile here).
const sameAccess: [Fund["access"], FundAccessMode] extends [FundAccessMode, Fund["access"]] ? true : never = true;
const sameStatus: [Fund["status"], FundStatus] extends [FundStatus, Fund["status"]] ? true : never = true;
void sameAccess;
void sameStatus;

/** A fund as GET /api/funds answers it. */
export type FundRead = Pick<Fund, "id" | "slug" | "name" | "currency" | "vintageYear" | "status">;

/** Reads run on the connection or inside a transaction. */
type Reader = Pick<Db, "select">;

/** Every fund, oldest vintage first (then by slug). */
export function listFunds(db: Reader = getDb()): Fund[] {
  return db.select().from(funds).orderBy(asc(funds.vintageYear), asc(funds.slug)).all();
}

/** The fund with this slug, or undefined (any string: an unknown one is simply not there). */
export function findFundBySlug(slug: string, db: Reader = getDb()): Fund | undefined {
  return db
    .select()
    .from(funds)
    .where(eq(funds.slug, slug as Fund["slug"]))
    .get();
}

/**
 * The fund behind a slug the code already holds as a FundId (a validated body,
 * a stored row, a route): the migration seeds both, so a missing row is a
 * broken database, not a visitor's mistake.
 */
export function fundBySlug(slug: Fund["slug"], db: Reader = getDb()): Fund {
  const fund = findFundBySlug(slug, db);
  if (!fund) throw new Error(`the funds table has no row for ${slug} (migration 0017 seeds it)`);
  return fund;
}

export function toFundRead(fund: Fund): FundRead {
  return { id: fund.id, slug: fund.slug, name: fund.name, currency: fund.currency, vintageYear: fund.vintageYear, status: fund.status };
}

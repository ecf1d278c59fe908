import { and, desc, eq, inArray } from "drizzle-orm";
import { publishingMessages } from "~/content/statements-rules";
import type { Db } from "~/modules/db/connection.server";
import { statementQuarters } from "../../../db/schema";
import { AppError } from "../http/app-error";
import { quarterEnd, quarterOf } from "./quarter";

/**
 * A published quarter is closed (issue 25 §2, decision 041): nothing may be
 * dated inside a fund's quarter whose latest version is `published` — no
 * payment, valuation, commitment (acceptance or raise), call (notice or due
 * date) or distribution. "Restate" reopens the quarter (its latest version
 * becomes `reopened`), which lets such changes through until the next version
 * is published. Checked inside the writing transaction, so a publish and a
 * change never both pass.
 */

/** Whether the quarter is over on the firm's calendar day `today` (Zurich): its last day is before today. */
export function quarterIsOver(quarter: string, today: string): boolean {
  return quarterEnd(quarter) < today;
}

/** The quarters among these of the fund whose latest version is `published`, oldest first. */
export function closedQuarters(db: Pick<Db, "select">, fundId: string, quarters: readonly string[]): string[] {
  const wanted = [...new Set(quarters)];
  if (!wanted.length) return [];
  const rows = db
    .select({ quarter: statementQuarters.quarter, status: statementQuarters.status })
    .from(statementQuarters)
    .where(and(eq(statementQuarters.fundId, fundId), inArray(statementQuarters.quarter, wanted)))
    .orderBy(desc(statementQuarters.version))
    .all();
  const latest = new Map<string, string>();
  for (const row of rows) if (!latest.has(row.quarter)) latest.set(row.quarter, row.status);
  return [...latest].filter(([, status]) => status === "published").map(([quarter]) => quarter).sort();
}

type MaybeDate = string | null | undefined;

/**
 * 409 when any of `dates` ('YYYY-MM-DD') falls in a published quarter of the
 * fund, naming the quarter; call it in the transaction that writes the dated
 * change. Given as `{ field: date }`, the message is also that form field's
 * error (the first closed one), so a page shows it at the date.
 */
export function assertQuarterOpen(tx: Pick<Db, "select">, fundId: string, dates: readonly MaybeDate[] | Readonly<Record<string, MaybeDate>>): void {
  const named: [string | null, MaybeDate][] = Array.isArray(dates) ? dates.map((date) => [null, date]) : Object.entries(dates);
  const valid = named.filter((pair): pair is [string | null, string] => typeof pair[1] === "string" && pair[1].length >= 10);
  const closed = new Set(
    closedQuarters(
      tx,
      fundId,
      valid.map(([, date]) => quarterOf(date)),
    ),
  );
  if (!closed.size) return;
  const [field, date] = valid.find(([, d]) => closed.has(quarterOf(d)))!;
  const message = publishingMessages.quarterClosed(quarterOf(date));
  throw new AppError("conflict", message, field ? { fields: { [field]: [message] } } : {});
}

import { getDb, type Db } from "~/modules/db/connection.server";
import type { Fund } from "../funds/funds.server";
import { readFundHistories, type FundHistory } from "./inputs.server";
import { quarterEnd } from "./quarter";
import { commitmentInForce, tieOut, type EntityFundHistory } from "./rollforward";
import type { PnlAmounts } from "./types";

/**
 * A fund's quarter tied out, entity by entity (issue 25 §1, decision 041):
 * every entity with a commitment in force at the quarter's end is a row, its
 * roll-forward's ending NAV against the valuation at the quarter's end. The
 * P&L is the stored one (pnl_rows), or the one an import would write.
 */

export type TieOutRow = {
  entity: { id: string; name: string };
  endingNavExpected: bigint;
  endingNavActual: bigint | null;
  /** actual − expected; null without a valuation. */
  difference: bigint | null;
  ok: boolean;
  /** Why not ok: no P&L row for the quarter, no valuation at its end, or the two differ. */
  problem: "no_valuation" | "no_pnl" | "does_not_tie" | null;
};

/** A history with the quarter's P&L replaced by `pnl` (absent from it: none). */
function withPnl(history: EntityFundHistory, quarter: string, pnl: PnlAmounts | undefined): EntityFundHistory {
  const next = new Map(history.pnl);
  if (pnl) next.set(quarter, pnl);
  else next.delete(quarter);
  return { ...history, pnl: next };
}

/** The tie-out row of one entity's history (its quarter's P&L already in place). */
export function tieOutRow(entity: { id: string; name: string }, history: EntityFundHistory, quarter: string): TieOutRow {
  const result = tieOut(history, quarter);
  const problem = !history.pnl.has(quarter) ? "no_pnl" : result.actual === null ? "no_valuation" : result.ok ? null : "does_not_tie";
  return { entity, endingNavExpected: result.expected, endingNavActual: result.actual, difference: result.difference, ok: problem === null, problem };
}

/** The entities of `histories` with a commitment in force at the quarter's end, in their order (by name). */
export function committedAtQuarterEnd(histories: Map<string, FundHistory>, quarter: string): FundHistory[] {
  const end = quarterEnd(quarter);
  return [...histories.values()].filter(({ history }) => commitmentInForce(history.commitmentChanges, end) > 0n);
}

/**
 * The quarter's tie-out for `fund`: one row per entity with a commitment in
 * force at the quarter's end, by name. `pnl` (entity id → amounts) stands in
 * for the stored rows of that quarter; null reads the stored ones.
 */
export function tieOutQuarter(fund: Fund, quarter: string, pnl: Map<string, PnlAmounts> | null, db: Pick<Db, "select"> = getDb()): TieOutRow[] {
  return tieOutHistories(committedAtQuarterEnd(readFundHistories(fund.id, quarterEnd(quarter), db), quarter), quarter, pnl);
}

/** tieOutQuarter on histories already read (committedAtQuarterEnd's): publishing reads them once for the tie-out and the statements. */
export function tieOutHistories(histories: FundHistory[], quarter: string, pnl: Map<string, PnlAmounts> | null = null): TieOutRow[] {
  return histories.map(({ entity, history }) => tieOutRow(entity, pnl === null ? history : withPnl(history, quarter, pnl.get(entity.id)), quarter));
}

import { firm } from "~/content/firm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { chartPoints, type ChartFlow } from "../capital-account/chart.server";
import { toDecimalString } from "../capital/money";
import type { Fund } from "../funds/funds.server";
import { readFundHistories, type FundHistory } from "./inputs.server";
import { quarterEnd } from "./quarter";
import { commitmentInForce, percentageOf, rollForward, STATEMENT_ROWS, statementMetrics, type EntityFundHistory } from "./rollforward";
import { committedAtQuarterEnd } from "./tie-out.server";
import type { RollForwardColumn, StatementDoc, StoredChartPoint, StoredColumn } from "./types";

/**
 * Every entity's capital account statement of a fund's quarter, as frozen at
 * publishing (issue 25 §1–2, decision 041; `StatementDoc` in types.ts): one per
 * entity with a commitment in force at the quarter's end, by name. Amounts are
 * decimal strings in the fund's currency; a later version lists what changed
 * in the quarter's column against the version before it (`previous`, by entity
 * id; an entity the previous version did not have is compared with zeros).
 *
 * One read of the fund's histories (inputs.server.ts), then pure work per
 * entity: 2,000 entities in a few hundred milliseconds.
 */

export type StatementDocsOptions = {
  version: number;
  /** The previous version's statements by entity id (a restatement), or null for the first version. */
  previous: Map<string, StatementDoc> | null;
  /** The publishing day, 'YYYY-MM-DD'. */
  publishedOn: string;
};

/** A column with every amount a decimal string. */
export function storedColumn(column: RollForwardColumn, currency: string): StoredColumn {
  const stored = { fromQuarter: column.fromQuarter, toQuarter: column.toQuarter } as StoredColumn;
  for (const key of STATEMENT_ROWS) stored[key] = toDecimalString(column[key], currency);
  return stored;
}

/** The capital account chart's points of a history, up to the quarter's end (the history is read through it). */
function chartOf(history: EntityFundHistory, currency: string, end: string): StoredChartPoint[] {
  const money = (minor: bigint) => toDecimalString(minor, currency);
  const flows: ChartFlow[] = [];
  for (const p of history.payments) if (p.date <= end) flows.push({ date: p.date, kind: "payment", amount: money(p.amount) });
  for (const d of history.distributions) if (d.date <= end) flows.push({ date: d.date, kind: "distribution", amount: money(d.amount) });
  for (const v of history.valuations) if (v.date <= end) flows.push({ date: v.date, kind: "valuation", amount: money(v.nav) });
  return chartPoints(flows, currency).map((point) => ({
    label: point.label,
    start: point.start,
    end: point.end,
    paidIn: money(point.paidIn),
    distributed: money(point.distributed),
    nav: point.nav === null ? null : money(point.nav),
  }));
}

/** The rows of the quarter's column whose value changed against `before` (null: an entity new in this version, compared with zeros). */
export function columnDifferences(before: StoredColumn | null, current: StoredColumn, currency: string): StatementDoc["differences"] {
  const zero = toDecimalString(0n, currency);
  return STATEMENT_ROWS.flatMap((row) => {
    const previous = before ? before[row] : zero;
    return previous === current[row] ? [] : [{ row, previous, current: current[row] }];
  });
}

/** The statements of `fund`'s `quarter` for every entity with a commitment in force at its end. */
export function statementDocsFor(fund: Fund, quarter: string, options: StatementDocsOptions, db: Pick<Db, "select"> = getDb()): StatementDoc[] {
  return [...statementDocsOf(fund, quarter, committedAtQuarterEnd(readFundHistories(fund.id, quarterEnd(quarter), db), quarter), options)];
}

/**
 * The statements of `histories` (committedAtQuarterEnd's, read once by the
 * caller), one at a time: publishing 2,000 of them keeps a chunk in memory,
 * not all (the server's RSS budget while publishing, issue 25).
 */
export function* statementDocsOf(fund: Fund, quarter: string, histories: FundHistory[], options: StatementDocsOptions): Generator<StatementDoc> {
  const end = quarterEnd(quarter);
  const { currency } = fund;
  const money = (minor: bigint) => toDecimalString(minor, currency);
  let fundCommitments = 0n;
  for (const { history } of histories) fundCommitments += commitmentInForce(history.commitmentChanges, end);

  for (const { entity, history } of histories) {
    const roll = rollForward(history, quarter);
    const metrics = statementMetrics(history, quarter);
    const columns = {
      quarter: storedColumn(roll.quarter, currency),
      yearToDate: storedColumn(roll.yearToDate, currency),
      inceptionToDate: storedColumn(roll.inceptionToDate, currency),
    };
    const before = options.previous ? (options.previous.get(entity.id)?.columns.quarter ?? null) : undefined;
    yield {
      firmName: firm.name,
      fund: { slug: fund.slug, name: fund.name, currency },
      entity: { id: entity.id, name: entity.name },
      quarter,
      periodEnd: end,
      version: options.version,
      restated: options.version > 1,
      differences: before === undefined ? [] : columnDifferences(before, columns.quarter, currency),
      columns,
      inceptionPartial: roll.inceptionPartial,
      callsNoticedNotDue: roll.callsNoticedNotDue,
      paidInToDate: money(metrics.paidInToDate),
      distributedToDate: money(metrics.distributedToDate),
      dpi: metrics.dpi,
      rvpi: metrics.rvpi,
      tvpi: metrics.tvpi,
      irr: metrics.irr,
      irrNote: metrics.irrNote,
      shareOfFund: percentageOf(roll.quarter.totalCommitment, fundCommitments),
      chart: chartOf(history, currency, end),
      publishedOn: options.publishedOn,
    };
  }
}

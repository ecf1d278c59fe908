/**
 * Calendar quarters (issue 25; a fiscal year is the calendar year): '2026-Q3'.
 * Dates are calendar dates 'YYYY-MM-DD'; a quarter holds the dates from its
 * first day to its last, both included.
 */

export const QUARTER_PATTERN = /^(\d{4})-Q([1-4])$/;

export type QuarterParts = { year: number; q: 1 | 2 | 3 | 4 };

export function isQuarter(value: unknown): value is string {
  return typeof value === "string" && QUARTER_PATTERN.test(value);
}

export function parseQuarter(quarter: string): QuarterParts {
  const match = QUARTER_PATTERN.exec(quarter);
  if (!match) throw new Error(`not a quarter: ${quarter}`);
  return { year: Number(match[1]), q: Number(match[2]) as QuarterParts["q"] };
}

export function formatQuarter({ year, q }: QuarterParts): string {
  return `${String(year).padStart(4, "0")}-Q${q}`;
}

/** The quarter a 'YYYY-MM-DD' date falls in. */
export function quarterOf(date: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return formatQuarter({ year, q: (Math.floor((month - 1) / 3) + 1) as QuarterParts["q"] });
}

const pad = (n: number) => String(n).padStart(2, "0");

export function quarterStart(quarter: string): string {
  const { year, q } = parseQuarter(quarter);
  return `${year}-${pad((q - 1) * 3 + 1)}-01`;
}

export function quarterEnd(quarter: string): string {
  const { year, q } = parseQuarter(quarter);
  return `${year}-${["03-31", "06-30", "09-30", "12-31"][q - 1]}`;
}

export function previousQuarter(quarter: string): string {
  const { year, q } = parseQuarter(quarter);
  return q === 1 ? formatQuarter({ year: year - 1, q: 4 }) : formatQuarter({ year, q: (q - 1) as QuarterParts["q"] });
}

export function nextQuarter(quarter: string): string {
  const { year, q } = parseQuarter(quarter);
  return q === 4 ? formatQuarter({ year: year + 1, q: 1 }) : formatQuarter({ year, q: (q + 1) as QuarterParts["q"] });
}

/** The first quarter of the quarter's (calendar) year. */
export function yearStartQuarter(quarter: string): string {
  return formatQuarter({ year: parseQuarter(quarter).year, q: 1 });
}

/** Quarters compare as strings ('2025-Q4' < '2026-Q1'). */
export function compareQuarters(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Small text-table and number formatting helpers for the benchmark report. */

export function kb(bytes: number, digits = 1): string {
  return `${(bytes / 1024).toFixed(digits)} KB`;
}

export function mb(kbValue: number): string {
  return `${(kbValue / 1024).toFixed(1)} MB`;
}

export function num(n: number, digits = 0): string {
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function ratio(n: number): string {
  return `${n.toFixed(2)}×`;
}

export function passFail(ok: boolean): string {
  return ok ? "PASS" : "FAIL";
}

/** A plain aligned table; columns whose header starts with ">" are right-aligned. */
export function table(headers: string[], rows: string[][], indent = "  "): string {
  const right = headers.map((h) => h.startsWith(">"));
  const heads = headers.map((h) => h.replace(/^>/, ""));
  const widths = heads.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    indent +
    cells
      .map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  const rule = indent + widths.map((w) => "─".repeat(w)).join("  ");
  return [line(heads), rule, ...rows.map(line)].join("\n");
}

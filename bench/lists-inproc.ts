/**
 * In-process half of the admin lists benchmark (bench/lists.ts), run as its
 * own process with DATABASE_PATH set in its environment before anything
 * imports db/client (so it reads the bench database, not the dev one):
 *
 *   node --import tsx bench/lists-inproc.ts reads [runs]   the dashboard loader's reads, each timed on its own
 *   node --import tsx bench/lists-inproc.ts tsv [runs]     readAllRows('newsletter') + toTsv, as the export route does
 *
 * Each figure is the median of `runs` (default 5) after one warm-up. The
 * last line of stdout is a JSON object.
 */
import { performance } from "node:perf_hooks";

const mode = process.argv[2];
const runs = Math.max(1, Number(process.argv[3] ?? "5") || 5);
if (mode !== "reads" && mode !== "tsv") {
  console.error("usage: node --import tsx bench/lists-inproc.ts reads|tsv [runs]");
  process.exit(2);
}
if (!process.env.DATABASE_PATH) {
  console.error("bench/lists-inproc.ts: DATABASE_PATH is not set (it must point at the bench database)");
  process.exit(2);
}

// Imported only now: db/client reads DATABASE_PATH (through getEnv) when first used.
const { closeDb, getDb } = await import("../db/client");
const { readAllRows, readListPage } = await import("../app/modules/email-lists/email-lists.server");
const { toTsv } = await import("../app/modules/email-lists/export");
const { DEFAULT_SORT, LIST_KEYS } = await import("../app/modules/email-lists/lists");

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** One warm-up, then `runs` timed calls; the median in ms and what the last call returned. */
function time<T>(fn: () => T): { ms: number; all: number[]; value: T } {
  let value = fn();
  const all: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = fn();
    all.push(performance.now() - t0);
  }
  return { ms: median(all), all, value };
}

const round = (n: number, d = 2) => Number(n.toFixed(d));
getDb(); // open + migrations, outside the timings

if (mode === "tsv") {
  const read = time(() => readAllRows("newsletter", DEFAULT_SORT));
  const rows = read.value;
  const tsv = time(() => toTsv("newsletter", rows));
  const both = time(() => toTsv("newsletter", readAllRows("newsletter", DEFAULT_SORT)));
  console.log(
    JSON.stringify({
      mode,
      runs,
      rows: rows.length,
      tsvBytes: Buffer.byteLength(tsv.value),
      readAllRowsMs: round(read.ms),
      toTsvMs: round(tsv.ms),
      totalMs: round(both.ms),
      totalAllMs: both.all.map((x) => round(x)),
    }),
  );
} else {
  const { listUsersByStatus, toListedUser } = await import("../app/modules/lp-users/lp-users.server");
  const { listFundAccessRequests, toFundAccessRead } = await import("../app/modules/fund-access/fund-access.server");
  const { summarizeAccess } = await import("../app/modules/access-log/access-log.server");
  const { listDocuments } = await import("../app/modules/documents/documents.server");
  const { listFundDocuments } = await import("../app/modules/fund-documents/fund-documents.server");
  const { format } = await import("date-fns");

  // The per-row formatting the loader does (replicas of app/routes/admin/dashboard.tsx's
  // toAdminListUser and formatUtcDateTime, which are not exported), to show its share.
  const formatUtcDateTime = (date: Date) => {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone: "UTC",
      year: "numeric",
      month: "short",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).formatToParts(date);
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
    return `${part("month")} ${part("day")}, ${part("year")} ${part("hour")}:${part("minute")}`;
  };

  type Read = { name: string; rows: number; ms: number };
  const reads: Read[] = [];
  const add = (name: string, fn: () => unknown[] | Map<unknown, unknown> | { rows: unknown[] }) => {
    const t = time(fn);
    const v = t.value;
    const rows = Array.isArray(v) ? v.length : v instanceof Map ? v.size : v.rows.length;
    reads.push({ name, rows, ms: round(t.ms, 3) });
  };
  for (const status of ["pending", "approved", "rejected"] as const) add(`listUsersByStatus('${status}')`, () => listUsersByStatus(status));
  add("listFundAccessRequests()", () => listFundAccessRequests());
  add("summarizeAccess('lp') + ('fund') ×2", () => {
    summarizeAccess("lp");
    summarizeAccess("fund");
    return summarizeAccess("fund");
  });
  add("listDocuments() + listFundDocuments() ×2", () => [...listDocuments(), ...listFundDocuments("fund-ii"), ...listFundDocuments("fund-i")]);
  for (const list of LIST_KEYS) add(`readListPage('${list}', 50 rows)`, () => readListPage(list, DEFAULT_SORT, { offset: 0, limit: 50 }));

  // Per-row mapping of the unpaged lists (DB read excluded).
  const users = [...listUsersByStatus("pending"), ...listUsersByStatus("approved"), ...listUsersByStatus("rejected")];
  const requests = listFundAccessRequests();
  add("map LP users: toListedUser + date-fns format (replica)", () =>
    users.map((u) => ({ ...toListedUser(u), requestedOn: format(new Date(u.createdAt), "MMM dd, yyyy") })),
  );
  add("map fund requests: toFundAccessRead + new Intl.DateTimeFormat per row (replica)", () =>
    requests.map((r) => ({ ...toFundAccessRead(r), requestedAt: formatUtcDateTime(r.createdAt), revokedAt: r.revokedAt ? formatUtcDateTime(r.revokedAt) : null })),
  );
  console.log(JSON.stringify({ mode, runs, reads }));
}
closeDb();

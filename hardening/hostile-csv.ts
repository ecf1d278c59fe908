/**
 * Part of hostile-input: the CSV imports' hostile files (issue 24 §7 and
 * issue 25, "Security"), one list of files sent to every import as the admin,
 * each as its form or client sends it:
 * - the valuations import (/admin/funds/{slug}/valuations: the upload,
 *   step=preview, and the confirm, step=confirm with the previewed text in
 *   field csv);
 * - the P&L import (/admin/funds/{slug}/statements: the same two steps; POST
 *   /api/statements/import: a text/csv body, previewed, and with commit=1);
 * - the history import (/admin/funds/{slug}/import: the upload, step=preview,
 *   file field history).
 * The files are written for each import's columns (a Format): formula cells
 * in every column, a UTF-8 BOM, wrong columns, a million rows (under the
 * file limit, so the parser's row cap must stop them, and a real-sized ~50 MB
 * one that the body limit must stop), non-numeric and overlong cells, CRLF
 * and quotes, and files that are not CSV at all. Each has the answer the
 * target owes it: a good file's preview (200, its entity shown), a refusal of
 * its rows (the page: 400; the confirm: 400 or 422; the JSON preview: 200
 * with ok false; its commit: 422), a refusal of the file (400), or of its
 * size (400 or 413). None may answer 5xx, the million rows must be refused
 * fast (10 s, the history import too: it counts line breaks before it parses), and nothing may be written (valuations, P&L rows, ledger entries and
 * payments, published quarters, their audit rows). The targets that write
 * (a confirm, commit=1) get only the files they must refuse. Then two ledger
 * forms past their 20 lines.
 *
 * HARDENING_PLANT=1: a formula file expected to preview (200), a budget of
 * 1 ms for the million rows, and a valuation and a P&L row written behind the
 * imports' back.
 */
import net from "node:net";
import { formBody, multipart, openDatabase, request, sleep, unique, type AppServer, type HttpAnswer, type Tally } from "./harness";
import { clientHeaders, type Fixture } from "./hostile-helpers";
import { CAPITAL_DATES, CAPITAL_FUND, HISTORY_DATE, HISTORY_HEADER, ledgerFormFields, PNL_AMOUNTS, PNL_HEADER, STATEMENT_QUARTERS } from "./web-helpers";

const PLANT = process.env.HARDENING_PLANT === "1";
/** A million rows must be answered within this (they are refused by the row cap or the body limit, never read through). */
const MILLION_ROWS_MS = 10_000;
/**
 * Files in flight at once, the timed ones apart: the million rows go alone, one after another (the history import's
 * holds the server for seconds: another import's refusal beside it would be timed with it), the ~50 MB posts too.
 */
const CONCURRENCY = 4;
const MILLION = 1_000_000;
/** Every kind of formula cell (OWASP's CSV injection list): in each column of a row of its own. */
const FORMULAS = ["=1+1", "+cmd|' /C calc'!A0", "@SUM(1)", "-2+3", '=HYPERLINK("http://evil.example","x")', "\t=1+1"];
/** Amounts that are not amounts (and one too large for any column), in a column that takes one. */
const NOT_AMOUNTS = ["abc", "1.2.3", "NaN", "Infinity", "1e5", "0x10", "１２.００", "12,50", "(100.00)", "1 000.00", `${"9".repeat(400)}.00`];

type Answer = HttpAnswer | { status: number; text: string };

/** An import's file format: its header and the rows of a file it takes from the fixture. */
type Format = {
  name: string;
  header: string;
  /** A file's good rows (every one needed: a P&L file names every committed entity). */
  good: string[];
  /** The index of a column that takes an amount, and one that names the entity. */
  amountColumn: number;
  entityColumn: number;
  /** A good preview shows this (the entity's name), when the preview lists its rows. */
  shows?: string;
};

/** How a target answers a kind of file. */
type Target = {
  name: string;
  format: Format;
  /** Sends a file's bytes as the form or client does (a confirm: the bytes as the previewed text). */
  send: (file: Buffer) => Promise<Answer>;
  /** It writes what it takes (a confirm, commit=1): it gets no file it would take. */
  writes: boolean;
  /** It takes text, not bytes (a confirm's field): a file's bytes refused as such may be read as rows. */
  textual?: boolean;
  /** Statuses for a file whose rows are refused, and whether the answer must say so (a JSON preview's ok false). */
  rows: number[];
  rowsSaid?: (text: string) => boolean;
  /** Statuses for a file that cannot be read as rows. */
  file: number[];
  /** Its upload path, posted raw with ~50 MB (the body limit's 413); once per path. */
  big?: { path: string; frame: (file: Buffer) => { headers: Record<string, string>; body: Buffer } };
  /** The file field sent as a text field (an upload form's target only). */
  asText?: (text: string) => Promise<Answer>;
};

/**
 * A file's kind: good (a preview takes it), its rows or the file refused, its bytes refused (a confirm's text is
 * read as rows: refused either way), either of good and refused, or too large.
 */
type Kind = "good" | "rows" | "file" | "bytes" | "either" | "million" | "big";
type FileCase = { name: string; kind: Kind; bytes: (f: Format) => Buffer };

const utf8 = (text: string) => Buffer.from(text, "utf8");
const file = (header: string, rows: string[], nl = "\n") => utf8([header, ...rows].join(nl) + nl);
const cells = (row: string) => row.split(",");
/** A row with cell `at` replaced. */
const withCell = (row: string, at: number, value: string) => cells(row).map((c, i) => (i === at ? value : c)).join(",");
const quoted = (row: string) => cells(row).map((c) => `"${c}"`).join(",");

const CASES: FileCase[] = [
  // Formula cells: every row refused, in every column.
  { name: "formula cells (=, +, @, -, HYPERLINK, tab) in every column", kind: "rows", bytes: (f) => file(f.header, cells(f.header).flatMap((_, at) => FORMULAS.map((x) => withCell(f.good[0]!, at, x)))) },
  // A UTF-8 BOM: the header is still read (the good rows resolve); two BOMs, or UTF-16, are not a CSV of ours.
  { name: "a UTF-8 BOM and CRLF (a good file)", kind: "good", bytes: (f) => Buffer.concat([utf8("\uFEFF"), file(f.header, f.good, "\r\n")]) },
  { name: "two BOMs (the second is trimmed as space, or refused)", kind: "either", bytes: (f) => Buffer.concat([utf8("\uFEFF\uFEFF"), file(f.header, f.good)]) },
  { name: "UTF-16LE with its BOM", kind: "file", bytes: (f) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([f.header, ...f.good, ""].join("\n"), "utf16le")]) },
  // Wrong columns: unknown names, a column twice, one missing, rows wider or narrower than the header.
  { name: "wrong columns (name, amount, when)", kind: "file", bytes: () => file("name,amount,when", ["Someone,1.00,2024-06-30"]) },
  { name: "a column twice", kind: "file", bytes: (f) => file(`${cells(f.header)[0]},${f.header}`, f.good.map((r) => `${cells(r)[0]},${r}`)) },
  { name: "the last column missing", kind: "file", bytes: (f) => file(cells(f.header).slice(0, -1).join(","), f.good.map((r) => cells(r).slice(0, -1).join(","))) },
  { name: "rows wider and narrower than the header", kind: "rows", bytes: (f) => file(f.header, [`${f.good[0]},extra`, cells(f.good[0]!).slice(0, 2).join(",")]) },
  // Non-numeric and overlong cells.
  { name: "non-numeric amounts (abc, 1e5, 0x10, full-width digits, 400 digits …)", kind: "rows", bytes: (f) => file(f.header, NOT_AMOUNTS.map((x) => withCell(f.good[0]!, f.amountColumn, x))) },
  { name: "an entity name of 1,500 characters", kind: "rows", bytes: (f) => file(f.header, [withCell(f.good[0]!, f.entityColumn, "N".repeat(1_500))]) },
  { name: "a row of 10,000 characters", kind: "file", bytes: (f) => file(f.header, [withCell(f.good[0]!, f.entityColumn, "x".repeat(10_000))]) },
  // A million rows: refused fast (the row cap; a real-sized one, the body limit).
  { name: "a million short rows (8 MB, under the file limits)", kind: "million", bytes: (f) => utf8(`${f.header}\n${"x,f,d,1\n".repeat(MILLION)}`) },
  { name: "a million real rows (past the body limit)", kind: "big", bytes: (f) => utf8(`${f.good[0]}\n`) },
  // CRLF and quotes: quoted cells, doubled quotes and a line break inside a name, an unterminated quote, lone CRs.
  { name: "quoted cells and CRLF (a good file)", kind: "good", bytes: (f) => file(quoted(f.header), f.good.map(quoted), "\r\n") },
  {
    name: "doubled quotes, a comma and CRLF inside a name",
    kind: "rows",
    bytes: (f) => file(f.header, [withCell(f.good[0]!, f.entityColumn, '"O""Brien, ""Trust""\r\nBcc: x@evil.example"')], "\r\n"),
  },
  { name: "an unterminated quote", kind: "file", bytes: (f) => file(f.header, [`"${f.good[0]}`, ...f.good]) },
  { name: "lone CR line ends", kind: "either", bytes: (f) => file(f.header, f.good, "\r") },
  // Not a CSV of ours at all.
  { name: "an empty file", kind: "file", bytes: () => Buffer.alloc(0) },
  { name: "a header only", kind: "file", bytes: (f) => utf8(`${f.header}\n`) },
  { name: "NUL bytes (a binary file)", kind: "bytes", bytes: (f) => utf8(`${f.header}\n${withCell(f.good[0]!, f.entityColumn, "x\u0000")}\n`) },
  { name: "invalid UTF-8", kind: "bytes", bytes: (f) => Buffer.concat([utf8(`${f.header}\n`), Buffer.from([0xc3, 0x28, 0xff]), utf8(`${f.good[0]}\n`)]) },
];

/** The upload form's post: the file as a browser sends it, in `field`, with the form's `intent` and step=preview. */
const upload = (intent: string, bytes: Buffer, field = "file", fileName = "import.csv", type = "text/csv") =>
  multipart([
    { name: "intent", value: intent },
    { name: "step", value: "preview" },
    { name: field, value: bytes, filename: fileName, contentType: type },
  ]);
/** The confirm form's post: the previewed text and the rows the admin saw. */
const confirm = (intent: string, text: string, expected: string) =>
  multipart([
    { name: "intent", value: intent },
    { name: "step", value: "confirm" },
    { name: "csv", value: text },
    { name: "expected", value: expected },
    { name: "fileName", value: "import.csv" },
  ]);

/** `framed`'s body with its file part's bytes (`marker`) replaced by `row` × `count`, in one buffer (~60 MB, copied once). */
function repeatRows(framed: { headers: Record<string, string>; body: Buffer }, marker: string, row: Buffer, count: number) {
  const at = framed.body.indexOf(marker);
  const tail = framed.body.subarray(at + marker.length);
  const body = Buffer.allocUnsafe(at + row.length * count + tail.length);
  framed.body.copy(body, 0, 0, at);
  body.fill(row, at, at + row.length * count);
  tail.copy(body, at + row.length * count);
  return { headers: framed.headers, body };
}

/**
 * A POST written to a raw socket in 1 MB chunks, its answer read while
 * writing: a server that refuses a body early closes the connection mid-write
 * (EPIPE here), and its 413 must still be read.
 */
function rawPost(server: AppServer, path: string, headers: Record<string, string>, body: Buffer, timeoutMs = 30_000): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, "127.0.0.1");
    let received = "";
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0), text: received.split("\r\n\r\n").slice(1).join("\r\n\r\n") });
    });
    const write = async () => {
      const head = [`POST ${path} HTTP/1.1`, ...Object.entries({ ...headers, "content-length": String(body.length), connection: "close" }).map(([k, v]) => `${k}: ${v}`)];
      socket.write(`${head.join("\r\n")}\r\n\r\n`);
      for (let at = 0; at < body.length && !socket.destroyed && !received; at += 1 << 20) {
        const more = socket.write(body.subarray(at, at + (1 << 20)));
        if (!more) await new Promise<void>((go) => (socket.once("drain", go), socket.once("close", go)));
      }
      if (!socket.destroyed) socket.end();
    };
    socket.on("connect", () => void write());
  });
}

/** The status the server logged for a request (its X-Request-Id, which TRUST_PROXY lets the harness choose), or 0. */
async function loggedStatus(server: AppServer, requestId: string): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const line = server.logLines().find((l) => l.includes(`"requestId":"${requestId}"`) && l.includes('"msg":"request"'));
    if (line) return Number((JSON.parse(line) as { status?: number }).status ?? 0);
    await sleep(100);
  }
  return 0;
}

/**
 * What the imports write, and their audit rows: equal before and after, nothing was written (the valuations,
 * the P&L rows, the history's ledger entries and payments, the published quarters).
 */
export function importsState(server: AppServer): string {
  const db = openDatabase(server);
  try {
    const one = (sql: string) => db.prepare(sql).raw().get();
    return JSON.stringify({
      valuations: one("select count(*), coalesce(sum(nav_minor), 0), coalesce(max(rowid), 0) from valuations"),
      pnl: one(
        "select count(*), coalesce(sum(management_fees_minor + partnership_expenses_minor + other_income_minor + realized_gain_minor + unrealized_gain_change_minor + carried_interest_change_minor), 0), coalesce(max(rowid), 0) from pnl_rows",
      ),
      ledger: one("select (select count(*) from ledger_entries), (select count(*) from ledger_allocations), (select count(*) from call_payments)"),
      quarters: one("select count(*) from statement_quarters"),
      audited: db.prepare("select event, count(*) from audit_events where event in ('valuation.imported', 'statements.pnl_imported', 'history.imported', 'statements.published') group by event").raw().all(),
    });
  } finally {
    db.close();
  }
}

/** The imports and how each is reached, for the fixture's fund and entities. */
function targets(fx: Fixture): Target[] {
  const server = fx.server;
  const { entityId: id, formEntityId, entityName } = fx.capital;
  const post = (path: string, body: { headers: Record<string, string>; body: string | Buffer }) =>
    request(server.url, "POST", path, { headers: { ...clientHeaders(server, fx.adminCookie), ...body.headers }, body: body.body, timeoutMs: 60_000 });
  const text = (bytes: Buffer) => bytes.toString("utf8");
  const valuations: Format = { name: "valuations", header: "entity_id,fund,date,nav", good: [`${id},${CAPITAL_FUND},${CAPITAL_DATES.valued},1000.00`], amountColumn: 3, entityColumn: 0, shows: entityName };
  // A P&L file names every entity with a commitment at the quarter's end: both of the fixture's (by id and by name).
  const quarter = STATEMENT_QUARTERS.imported;
  const pnl: Format = {
    name: "P&L",
    header: PNL_HEADER,
    good: [entityName, formEntityId].map((entity) => [entity, CAPITAL_FUND, quarter, ...PNL_AMOUNTS].join(",")),
    amountColumn: 3,
    entityColumn: 0,
    shows: entityName,
  };
  const history: Format = { name: "history", header: HISTORY_HEADER, good: [`${entityName},valuation,${HISTORY_DATE},,,,,1000.00`], amountColumn: 7, entityColumn: 0 };
  const marker = "\u0000ROWS\u0000";
  const VALUATIONS = `/admin/funds/${CAPITAL_FUND}/valuations`;
  const STATEMENTS = `/admin/funds/${CAPITAL_FUND}/statements`;
  const HISTORY = `/admin/funds/${CAPITAL_FUND}/import`;
  const JSON_IMPORT = `/api/statements/import?fund=${CAPITAL_FUND}`;
  const csvBody = (bytes: Buffer) => ({ headers: { "content-type": "text/csv" }, body: bytes });
  const pageUpload = (path: string, intent: string, format: Format, field = "file"): Target => ({
    name: `${format.name}: ${path} (upload)`,
    format,
    send: (bytes) => post(path, upload(intent, bytes, field)),
    writes: false,
    rows: [400],
    file: [400],
    big: { path, frame: () => upload(intent, Buffer.from(marker), field) },
    asText: (t) => post(path, multipart([{ name: "intent", value: intent }, { name: "step", value: "preview" }, { name: field, value: t }])),
  });
  const pageConfirm = (path: string, intent: string, format: Format, rows: number[]): Target => ({
    name: `${format.name}: ${path} (confirm)`,
    format,
    send: (bytes) => post(path, confirm(intent, text(bytes), String(format.good.length))),
    writes: true,
    textual: true,
    rows,
    file: [400],
  });
  return [
    pageUpload(VALUATIONS, "valuations", valuations),
    pageConfirm(VALUATIONS, "valuations", valuations, [400]),
    pageUpload(STATEMENTS, "statements-import", pnl),
    pageConfirm(STATEMENTS, "statements-import", pnl, [422]),
    {
      name: `P&L: POST ${JSON_IMPORT} (text/csv)`,
      format: pnl,
      send: (bytes) => post(JSON_IMPORT, csvBody(bytes)),
      writes: false,
      rows: [200],
      rowsSaid: (t) => t.includes('"ok":false'),
      file: [400],
      big: { path: JSON_IMPORT, frame: () => csvBody(Buffer.from(marker)) },
      asText: (t) => post(JSON_IMPORT, multipart([{ name: "file", value: t }])),
    },
    { name: `P&L: POST ${JSON_IMPORT}&commit=1 (text/csv)`, format: pnl, send: (bytes) => post(`${JSON_IMPORT}&commit=1`, csvBody(bytes)), writes: true, rows: [422], file: [400] },
    pageUpload(HISTORY, "history-import", history, "history"),
  ];
}

export async function hostileCsvPart(fx: Fixture, tally: Tally, ctx: { progress: (m: string) => void }) {
  const server = fx.server;
  const post = (path: string, body: { headers: Record<string, string>; body: string | Buffer }) =>
    request(server.url, "POST", path, { headers: { ...clientHeaders(server, fx.adminCookie), ...body.headers }, body: body.body, timeoutMs: 60_000 });
  /** `million`: the budget of a million rows' refusal (ms; sent alone). */
  type Sent = { name: string; expect: number[]; send: () => Promise<Answer>; million?: number; check?: (text: string) => boolean };
  const sent: Sent[] = [];
  let bigAnswerRead = 0;
  let bigSent = 0;
  const all = targets(fx);
  for (const target of all) {
    const f = target.format;
    for (const c of CASES) {
      if (target.writes && (c.kind === "good" || c.kind === "either" || c.kind === "big")) continue;
      const name = `${target.name}: ${c.name}`;
      if (c.kind === "big") {
        if (!target.big) continue;
        const big = target.big;
        sent.push({
          name,
          expect: [413],
          million: MILLION_ROWS_MS,
          send: async () => {
            // The server answers 413 at once and closes with the body unread: the client may get a reset before it reads
            // the answer (EPIPE / ECONNRESET here, a browser's "connection reset"), so the status is the one it logged.
            const requestId = `hardening-csv-${unique()}`;
            const built = repeatRows(big.frame(Buffer.alloc(0)), "\u0000ROWS\u0000", c.bytes(f), MILLION);
            const answer = await rawPost(server, big.path, { ...clientHeaders(server, fx.adminCookie), ...built.headers, "x-request-id": requestId }, built.body);
            bigSent += 1;
            if (answer.status) bigAnswerRead += 1;
            return answer.status ? answer : { status: await loggedStatus(server, requestId), text: "" };
          },
        });
        continue;
      }
      const expect =
        c.kind === "good"
          ? [200]
          : c.kind === "either"
            ? [200, ...target.rows, ...target.file]
            : c.kind === "rows"
              ? target.rows
              : c.kind === "file" || (c.kind === "bytes" && !target.textual)
                ? target.file
                : c.kind === "bytes"
                  ? [...new Set([...target.file, ...target.rows])]
                  : [400, 413];
      // A formula file must never preview as good (HARDENING_PLANT: expected to, to show the check fails).
      const planted = PLANT && c.name.startsWith("formula") && !target.writes;
      const check = c.kind === "good" && f.shows ? (t: string) => t.includes(f.shows!) : c.kind === "rows" ? target.rowsSaid : undefined;
      const million = c.kind === "million" ? { million: MILLION_ROWS_MS } : {};
      sent.push({ name, expect: planted ? [200] : expect, ...million, send: () => target.send(c.bytes(f)), ...(check && !planted ? { check } : {}) });
    }
    if (target.asText) {
      const asText = target.asText;
      sent.push({ name: `${target.name}: the file field as text, not a file`, expect: [400], send: () => asText([f.header, ...f.good, ""].join("\n")) });
    }
  }
  // The ledger forms past their lines: 101 lines to preview, a 21st line added.
  sent.push(
    {
      name: "a call with 101 lines (preview)",
      expect: [400],
      send: () => post(`/admin/funds/${CAPITAL_FUND}/calls/new`, formBody(ledgerFormFields("call", "preview", Array.from({ length: 101 }, () => ({ amount: "1.00" }))))),
    },
    {
      name: "a 21st line added (add-line)",
      expect: [400],
      send: () => post(`/admin/funds/${CAPITAL_FUND}/distributions/new`, formBody(ledgerFormFields("distribution", "add-line", Array.from({ length: 20 }, () => ({ amount: "1.00" }))))),
    },
  );

  const before = importsState(server);
  const wrong: string[] = [];
  const slow: string[] = [];
  let fiveXx = 0;
  let slowest = 0;
  let previewed = 0;
  let historyMillion = 0;
  const one = async (c: Sent) => {
    const started = Date.now();
    const answer = await c.send().catch((error: Error) => ({ status: 0, text: error.message }));
    const ms = Date.now() - started;
    if (answer.status >= 500 || answer.status === 0) fiveXx += 1;
    if (answer.status === 200 && c.name.startsWith("history")) previewed += 1;
    if (!c.expect.includes(answer.status) || (c.check && !c.check(answer.text))) wrong.push(`${c.name}: ${answer.status} (expected ${c.expect.join("/")}${c.check ? " and what it says" : ""})`);
    if (c.million) {
      if (c.name.startsWith("history")) historyMillion = Math.max(historyMillion, ms);
      else slowest = Math.max(slowest, ms);
      if (ms > (PLANT ? 1 : c.million)) slow.push(`${c.name}: ${ms} ms (budget ${c.million / 1000} s)`);
    }
    ctx.progress(`csv: ${c.name} → ${answer.status} in ${ms} ms`);
  };
  const queue = sent.filter((c) => !c.million);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await one(next);
    }),
  );
  for (const c of sent.filter((x) => x.million)) await one(c);
  if (PLANT) {
    const db = openDatabase(server, false);
    db.prepare("insert into valuations (id, fund_id, entity_id, date, nav_minor) select lower(hex(randomblob(16))), fund_id, entity_id, ?, 1 from commitments limit 1").run("2099-12-31");
    db.prepare(
      "insert into pnl_rows (fund_id, quarter, entity_id, management_fees_minor, partnership_expenses_minor, other_income_minor, realized_gain_minor, unrealized_gain_change_minor, carried_interest_change_minor) select fund_id, '2099-Q4', entity_id, 0, 0, 0, 0, 1, 0 from commitments limit 1",
    ).run();
    db.close();
  }
  const after = importsState(server);
  tally.info("hostile CSV files sent (imports × files: valuations, P&L page and JSON, history; previews, confirms, commit=1)", `${sent.length - 2} to ${all.length} targets`);
  tally.count("hostile CSV files answered otherwise than the import owes them", wrong.length, 0, wrong.slice(0, 3).join("; "));
  tally.count("hostile CSV files answered 5xx or not at all", fiveXx, 0);
  tally.info("a million rows: the slowest refusal (ms; the valuations and P&L imports)", slowest);
  tally.info("a million rows: the history import's refusal (ms)", historyMillion);
  tally.info("a million real rows: 413s read before the server closed (else taken from its log)", `${bigAnswerRead} of ${bigSent}`);
  tally.count(`a million rows: refusals slower than ${MILLION_ROWS_MS / 1000} s`, slow.length, 0, slow.join("; "));
  tally.check("hostile CSV files: nothing written (valuations, P&L rows, ledger, quarters, their audit rows)", before === after, `${before} → ${after}`);
  for (const line of wrong.slice(0, 8)) tally.note(`csv: ${line}`);
  return { historyPreviews: previewed };
}

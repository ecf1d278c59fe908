/**
 * Part of hostile-input: the valuations import's hostile CSV files (issue 24
 * §7, "Security"), sent as the admin to /admin/funds/{slug}/valuations as its
 * upload form posts them (step=preview, a file) and as its confirm posts the
 * previewed text back (step=confirm, field csv): formula cells, a UTF-8 BOM,
 * wrong columns, a million rows (under the 8 MB file limit, so the parser's
 * row cap must stop it, and a real-sized one of ~50 MB that the body limit
 * must stop), CRLF and quotes, and a few files that are not CSV at all. Each
 * has the answer the page owes it (400 or 413; a good file's preview 200);
 * none may answer 5xx, the million rows must be refused fast, and nothing may
 * be written. Then two ledger forms past their 20 lines.
 *
 * HARDENING_PLANT=1: a formula file expected to preview (200), a budget of
 * 1 ms for the million rows, and a valuation written behind the import's back.
 */
import net from "node:net";
import { formBody, multipart, openDatabase, request, sleep, unique, type AppServer, type HttpAnswer, type Tally } from "./harness";
import { clientHeaders, type Fixture } from "./hostile-helpers";
import { CAPITAL_DATES, CAPITAL_FUND, ledgerFormFields } from "./web-helpers";

const PLANT = process.env.HARDENING_PLANT === "1";
const PAGE = `/admin/funds/${CAPITAL_FUND}/valuations`;
/** A million rows must be answered within this (they are refused by the row cap or the body limit, never read through). */
const MILLION_ROWS_MS = 10_000;
const MILLION = 1_000_000;

type CsvCase = { name: string; expect: number[]; send: () => Promise<HttpAnswer | { status: number; text: string }>; million?: boolean; check?: (text: string) => boolean };

/** The upload form's post: the file as a browser sends it. */
const upload = (bytes: Buffer, fileName = "navs.csv", type = "text/csv") =>
  multipart([
    { name: "intent", value: "valuations" },
    { name: "step", value: "preview" },
    { name: "file", value: bytes, filename: fileName, contentType: type },
  ]);
/** The confirm form's post: the previewed text and the rows the admin saw. */
const confirm = (text: string, expected: string) =>
  multipart([
    { name: "intent", value: "valuations" },
    { name: "step", value: "confirm" },
    { name: "csv", value: text },
    { name: "expected", value: expected },
    { name: "fileName", value: "navs.csv" },
  ]);

/** The upload form's post of a file of `count` copies of `row` under `header`, made in one buffer (~60 MB, copied once). */
function uploadOfRows(header: string, row: Buffer, count: number) {
  const marker = "\u0000ROWS\u0000";
  const framed = upload(Buffer.from(`${header}${marker}`));
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

/** What the valuations table and its audit rows hold: equal before and after, nothing was written. */
function valuationsState(server: AppServer): string {
  const db = openDatabase(server);
  try {
    const rows = db.prepare("select count(*) as n, coalesce(sum(nav_minor), 0) as total, coalesce(max(rowid), 0) as last from valuations").get();
    const audited = db.prepare("select count(*) as n from audit_events where event = 'valuation.imported'").get();
    return JSON.stringify({ rows, audited });
  } finally {
    db.close();
  }
}

export async function hostileCsvPart(fx: Fixture, tally: Tally, ctx: { progress: (m: string) => void }) {
  const server = fx.server;
  const { entityId: id, entityName } = fx.capital;
  const d = CAPITAL_DATES.valued;
  const post = (body: { headers: Record<string, string>; body: string | Buffer }, path = PAGE) =>
    request(server.url, "POST", path, { headers: { ...clientHeaders(server, fx.adminCookie), ...body.headers }, body: body.body, timeoutMs: 60_000 });
  const file = (text: string) => upload(Buffer.from(text, "utf8"));
  const row = (entity: string, nav = "1000.00", fund: string = CAPITAL_FUND, date = d) => `${entity},${fund},${date},${nav}`;
  const formulas = ["=1+1", "+cmd|' /C calc'!A0", "@SUM(1)", "-2+3", '=HYPERLINK("http://evil.example","x")', "\t=1+1"];
  const formulaCsv = ["entity,fund,date,nav", ...formulas.map((f) => row(f)), row(entityName, "=1+1"), row(entityName, "1.00", "@SUM(1)"), ""].join("\n");
  // A million rows: short ones (8 MB, under the file limit: the parser's row cap must stop them), and real-sized ones (~50 MB: the body limit).
  const shortMillion = Buffer.from(`entity_id,fund,date,nav\n${"x,f,d,1\n".repeat(MILLION)}`);
  const realRow = Buffer.from(`${row(id)}\n`);
  const realBytes = realRow.length * MILLION;

  const cases: CsvCase[] = [
    // Formula cells: every row refused (also by name, in every column), as a file and when confirmed.
    { name: "formula cells (=, +, @, -, HYPERLINK, tab) in every column", expect: PLANT ? [200] : [400], send: () => post(file(formulaCsv)) },
    { name: "formula cells, confirmed", expect: [400], send: () => post(confirm(formulaCsv, "8")) },
    // A UTF-8 BOM: the header is still read (the good row resolves); two BOMs, or UTF-16, are not a CSV of ours.
    { name: "a UTF-8 BOM and CRLF (a good row)", expect: [200], send: () => post(file(`\uFEFFentity_id,fund,date,nav\r\n${row(id)}\r\n`)), check: (text) => text.includes(entityName) },
    { name: "two BOMs (the second is trimmed as space, or refused)", expect: [200, 400], send: () => post(file(`\uFEFF\uFEFFentity_id,fund,date,nav\n${row(id)}\n`)) },
    { name: "UTF-16LE with its BOM", expect: [400], send: () => post(upload(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`entity_id,fund,date,nav\n${row(id)}\n`, "utf16le")]))) },
    // Wrong columns: unknown names, a column twice, one missing, rows wider or narrower than the header.
    { name: "wrong columns (name, amount, when)", expect: [400], send: () => post(file(`name,amount,when\n${entityName},1.00,${d}\n`)) },
    { name: "a column twice", expect: [400], send: () => post(file(`entity_id,entity_id,fund,date,nav\n${id},${row(id)}\n`)) },
    { name: "no nav column", expect: [400], send: () => post(file(`entity_id,fund,date\n${id},${CAPITAL_FUND},${d}\n`)) },
    { name: "rows wider and narrower than the header", expect: [400], send: () => post(file(`entity_id,fund,date,nav\n${row(id)},extra\n${id},${CAPITAL_FUND}\n`)) },
    // A million rows: refused fast, as a file, as confirmed text, and at its real size.
    { name: `a million short rows (${(shortMillion.length / 1e6).toFixed(1)} MB, under the file limit)`, expect: [400, 413], million: true, send: () => post(upload(shortMillion)) },
    { name: "a million short rows, confirmed as text", expect: [400, 413], million: true, send: () => post(confirm(shortMillion.toString("utf8"), String(MILLION))) },
    {
      name: `a million real rows (${(realBytes / 1e6).toFixed(0)} MB, past the body limit)`,
      expect: [413],
      million: true,
      send: async () => {
        // The server answers 413 at once and closes with the body unread: the client may get a reset before it reads
        // the answer (EPIPE / ECONNRESET here, a browser's "connection reset"), so the status is the one it logged.
        const requestId = `hardening-csv-${unique()}`;
        const built = uploadOfRows("entity_id,fund,date,nav\n", realRow, MILLION);
        const answer = await rawPost(server, PAGE, { ...clientHeaders(server, fx.adminCookie), ...built.headers, "x-request-id": requestId }, built.body);
        bigAnswerRead = answer.status !== 0;
        return answer.status ? answer : { status: await loggedStatus(server, requestId), text: "" };
      },
    },
    // CRLF and quotes: quoted cells, doubled quotes and a line break inside a name, an unterminated quote, lone CRs.
    { name: "quoted cells and CRLF (a good row)", expect: [200], send: () => post(file(`"entity_id","fund","date","nav"\r\n"${id}","${CAPITAL_FUND}","${d}","1000.00"\r\n`)) },
    { name: "doubled quotes, a comma and CRLF inside a name", expect: [400], send: () => post(file(`entity,fund,date,nav\r\n"O""Brien, ""Trust""\r\nBcc: x@evil.example",${CAPITAL_FUND},${d},1.00\r\n`)) },
    { name: "an unterminated quote", expect: [400], send: () => post(file(`entity_id,fund,date,nav\n"${row(id)}\n${row(id)}\n`)) },
    { name: "lone CR line ends", expect: [200, 400], send: () => post(file(`entity_id,fund,date,nav\r${row(id)}\r`)) },
    // Not a CSV of ours at all.
    { name: "an empty file", expect: [400], send: () => post(upload(Buffer.alloc(0))) },
    { name: "a header only", expect: [400], send: () => post(file("entity_id,fund,date,nav\n")) },
    { name: "NUL bytes (a binary file)", expect: [400], send: () => post(upload(Buffer.from(`entity_id,fund,date,nav\n${id}\u0000,${CAPITAL_FUND},${d},1.00\n`))) },
    { name: "invalid UTF-8", expect: [400], send: () => post(upload(Buffer.concat([Buffer.from(`entity,fund,date,nav\n`), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(`,${CAPITAL_FUND},${d},1.00\n`)]))) },
    { name: "a row of 10,000 characters", expect: [400], send: () => post(file(`entity,fund,date,nav\n${"x".repeat(10_000)},${CAPITAL_FUND},${d},1.00\n`)) },
    { name: "the file field as text, not a file", expect: [400], send: () => post(multipart([{ name: "intent", value: "valuations" }, { name: "step", value: "preview" }, { name: "file", value: `entity_id,fund,date,nav\n${row(id)}\n` }])) },
    // The ledger forms past their lines: 101 lines to preview, a 21st line added.
    {
      name: "a call with 101 lines (preview)",
      expect: [400],
      send: () => post(formBody(ledgerFormFields("call", "preview", Array.from({ length: 101 }, () => ({ amount: "1.00" })))), `/admin/funds/${CAPITAL_FUND}/calls/new`),
    },
    {
      name: "a 21st line added (add-line)",
      expect: [400],
      send: () => post(formBody(ledgerFormFields("distribution", "add-line", Array.from({ length: 20 }, () => ({ amount: "1.00" })))), `/admin/funds/${CAPITAL_FUND}/distributions/new`),
    },
  ];

  let bigAnswerRead = false;
  const before = valuationsState(server);
  const wrong: string[] = [];
  const slow: string[] = [];
  let fiveXx = 0;
  let slowest = 0;
  for (const c of cases) {
    const started = Date.now();
    const answer = await c.send().catch((error: Error) => ({ status: 0, text: error.message }));
    const ms = Date.now() - started;
    if (answer.status >= 500 || answer.status === 0) fiveXx += 1;
    if (!c.expect.includes(answer.status) || (c.check && !c.check(answer.text))) wrong.push(`${c.name}: ${answer.status} (expected ${c.expect.join("/")}${c.check ? " and its entity shown" : ""})`);
    if (c.million) {
      slowest = Math.max(slowest, ms);
      if (ms > (PLANT ? 1 : MILLION_ROWS_MS)) slow.push(`${c.name}: ${ms} ms`);
    }
    ctx.progress(`csv: ${c.name} → ${answer.status} in ${ms} ms`);
  }
  if (PLANT) {
    const db = openDatabase(server, false);
    db.prepare("insert into valuations (id, fund_id, entity_id, date, nav_minor) select lower(hex(randomblob(16))), fund_id, entity_id, ?, 1 from commitments limit 1").run("2099-12-31");
    db.close();
  }
  const after = valuationsState(server);
  tally.info("hostile CSV files and ledger forms sent (valuations import, preview and confirm)", cases.length);
  tally.count("hostile CSV files answered otherwise than the page owes them", wrong.length, 0, wrong.slice(0, 3).join("; "));
  tally.count("hostile CSV files answered 5xx or not at all", fiveXx, 0);
  tally.info("a million rows: the slowest refusal (ms)", slowest);
  tally.info("a million real rows: the 413 read before the server closed (else taken from its log)", bigAnswerRead ? "yes" : "no");
  tally.count(`a million rows: refusals slower than ${MILLION_ROWS_MS / 1000} s`, slow.length, 0, slow.join("; "));
  tally.check("hostile CSV files: nothing written (valuations, valuation.imported audit rows)", before === after, `${before} → ${after}`);
  for (const line of wrong.slice(0, 6)) tally.note(`csv: ${line}`);
}

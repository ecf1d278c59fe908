/**
 * capital-accounts: the capital account's two promises (issue 24; DESIGN.md
 * §10, decision 039), tried from outside against the production build.
 *
 * (a) No cross-entity reads. Investors A and B each own an entity with
 *     commitments; A's entity has a fund of its own (Fund II: a published
 *     call with a payment, a draft, a distribution, a valuation), and both
 *     are called by one shared Fund I call; a document is addressed to A's
 *     entity. B requests every route that takes an entity's, an entry's or
 *     that document's id with A's ids: the notice page (HTML, its .data,
 *     other spellings), the document's view and download (GET, HEAD, Range),
 *     the full ledger and its CSV filtered by A's entity (or A's fund), the
 *     admin-only JSON reads, pages (the ledger entry and change pages) and
 *     mutations (their form actions too). Each answer must equal
 *     the answer for an unknown id (status, headers but Date and X-Request-Id,
 *     body; a page's CSP nonce and the echoed id aside), the admin-only ones a
 *     403 or a redirect to the sign-in that names nothing of A's, and nothing
 *     may change. The lists B reads (GET /api/entities, GET
 *     /api/lp/capital-account, /lp/capital-account and its .data, the full
 *     ledger, its .data and CSV, the shared call's notice, the document
 *     lists) must not name A's entity, its ids,
 *     A's entries or the document. Statements (issue 25): 2024-Q4 of both
 *     funds is published through the JSON routes (A's entity in each, B's in
 *     Fund I) and its PDFs made; B requests A's statements (the page, its
 *     .data, other spellings), their PDFs and the notice PDFs of A's call and
 *     of A's share of the shared call through the documents routes, A's PDF
 *     job and A's fund's restate, and reads B's own lists (GET
 *     /api/lp/statements, /lp/statements and its .data): no word of A's. The
 *     controls: A's same requests open, the
 *     admin reads the ids, B sees B's own; the comparison tells B's own notice
 *     from an unknown id's; B made a viewer of A's entity reads it all, and
 *     removed, at once nothing (its statement and the statement's PDF too).
 * (b) No change to a published call. The call's rows (ledger_entries,
 *     ledger_lines, ledger_allocations) are read from the SQLite file, then
 *     the admin tries every way to change it: the commitments in force on its
 *     date change (a raise, a new entity of B's), publish again (3×, with and
 *     without a body), DELETE, a draft body POSTed/PUT/PATCHed to its id
 *     paths, the distribution routes with its id, payments above what is due
 *     or from entities it does not call, its page's forms (the change form's
 *     three intents: back to its page; delete-draft: 409; publish again: no
 *     change; payments as above), and a correction (a NEW entry with
 *     correctionOf, published: allowed). The rows must be byte-identical, its
 *     read the same, its payments the same, B still unable to read it, and no
 *     notice mail of its reference queued again.
 */
import { randomUUID } from "node:crypto";
import { MIME, samplePdf } from "../tests/helpers/sample-files";
import { formBody, jsonBody, multipart, openDatabase, startServer, Tally, unique, type AppServer, type HttpAnswer, type Part, type Section } from "./harness";
import { LEDGER_FORM_INTENTS } from "./endpoints";
import { changedTables, csvBody, dbFingerprint, dbValue, headerValue, ledgerFormFields, pdfJobsSettled, PNL_HEADER, Portal, type Body } from "./web-helpers";

/** HARDENING_PLANT=1: a read of B's own notice counted as one of A's ids, and a write to the published call's rows, to show the checks fail. */
const PLANT = process.env.HARDENING_PLANT === "1";
/** A local address of its own (no TRUST_PROXY): the section's sign-ins and registrations share no limit with others. */
const LOCAL_ADDRESS = "127.0.0.42";
/** Headers that differ on every answer whatever it says. */
const VARYING = new Set(["date", "x-request-id"]);
/** The tables a capital account is made of, the documents addressed to entities, and the outbox: what B's requests must leave as they were. */
const WATCHED_TABLES = [
  "entities",
  "entity_members",
  "commitments",
  "commitment_changes",
  "ledger_entries",
  "ledger_lines",
  "ledger_allocations",
  "call_payments",
  "valuations",
  "documents",
  "document_recipients",
  "document_recipient_entities",
  "email_outbox",
  "pnl_rows",
  "statement_quarters",
  "statements",
  "notice_documents",
];

/** The quarter whose statements the setup publishes (issue 25): nothing else is dated in it. */
const QUARTER = "2024-Q4";

/** An answer's text with the id the request named put back as `{id}` (a page echoes its own path: that tells nothing). */
function withoutAsked(text: string, asked: string): string {
  return asked ? text.replace(new RegExp(asked.replace(/[-]/g, "\\-"), "gi"), "{id}") : text;
}

/**
 * Everything an answer says but Date and X-Request-Id, with a page's
 * per-request CSP nonce blanked and the id the request named put back as
 * `{id}`: equal fingerprints are indistinguishable answers.
 */
function fingerprint(answer: HttpAnswer, asked = ""): string {
  const nonce = /nonce-[A-Za-z0-9+/=_-]+|nonce="[^"]*"/g;
  const headers = Object.entries(answer.headers)
    .filter(([name]) => !VARYING.has(name))
    .map(([name, value]) => [name, withoutAsked(String(value), asked).replace(nonce, "nonce")])
    .sort(([a], [b]) => String(a).localeCompare(String(b)));
  return JSON.stringify({ status: answer.status, headers, body: withoutAsked(answer.text, asked).replace(nonce, "nonce") });
}

/** The rows of a ledger entry as stored, column by column (byte-identical or not). */
function entryRows(server: AppServer, id: string): string {
  const db = openDatabase(server);
  try {
    const rows = {
      ledger_entries: db.prepare("select * from ledger_entries where id = ?").raw().all(id),
      ledger_lines: db.prepare("select * from ledger_lines where entry_id = ? order by position").raw().all(id),
      ledger_allocations: db.prepare("select * from ledger_allocations where entry_id = ? order by entity_id, position").raw().all(id),
    };
    return JSON.stringify(rows, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : Buffer.isBuffer(v) ? v.toString("hex") : v));
  } finally {
    db.close();
  }
}

export const section: Section = {
  name: "capital-accounts",
  run: async (ctx) => {
    const t = new Tally();
    const started = Date.now();
    const server = await startServer(ctx, { name: "capital-accounts" });
    let requests = 0;
    let serverErrors = 0;
    try {
      const portal = await new Portal(server, {}, LOCAL_ADDRESS).init();
      const call = async (method: string, path: string, cookie: string, body: Body = { headers: {} }, headers: Record<string, string> = {}) => {
        requests += 1;
        const answer = await portal.call(method, path, body, cookie, headers);
        if (answer.status >= 500) serverErrors += 1;
        return answer;
      };
      const admin = async (method: string, path: string, body: Body | undefined, status: number) => {
        const answer = await call(method, path, portal.adminCookie, body);
        if (answer.status !== status) throw new Error(`setup ${method} ${path}: ${answer.status} ${answer.text.slice(0, 300)}`);
        return JSON.parse(answer.text) as Record<string, unknown> & { id: string };
      };
      const a = await portal.investor();
      const b = await portal.investor();

      // ── setup: A's entity in Fund I and in a fund of its own (Fund II); B's in Fund I ──
      const tag = unique();
      const entity = async (name: string, owner: string) =>
        admin("POST", "/api/entities", jsonBody({ name, kind: "company", members: [{ userId: owner, role: "owner" }] }), 201);
      const alpha = await entity(`Alpha Holdings ${tag}`, a.id);
      const beta = await entity(`Beta Holdings ${tag}`, b.id);
      const commit = async (entityId: string, fund: string, amount: string, acceptedOn = "2024-01-15") =>
        (await admin("POST", "/api/commitments", jsonBody({ entityId, fund, amount, acceptedOn }), 201)).id;
      const alphaFundI = await commit(alpha.id, "fund-i", "1000000.00");
      const alphaFundII = await commit(alpha.id, "fund-ii", "2000000.00");
      await commit(beta.id, "fund-i", "3000000.00");
      const lines = [
        { type: "investment", amount: "150000.00", description: "Alpha's follow-on" },
        { type: "management_fee", amount: "12345.67" },
      ];
      const callOf = (fund: string, extra: Record<string, unknown> = {}) => jsonBody({ fund, noticeDate: "2024-03-01", dueDate: "2024-03-29", lines, ...extra });
      const publish = async (kind: "capital-calls" | "distributions", id: string) => admin("POST", `/api/${kind}/${id}/publish`, undefined, 200);
      const aCall = (await admin("POST", "/api/capital-calls", callOf("fund-ii"), 201)).id;
      await publish("capital-calls", aCall);
      await admin("POST", `/api/capital-calls/${aCall}/payments`, jsonBody({ entityId: alpha.id, amount: "1000.00", receivedOn: "2024-03-20" }), 201);
      const aDraft = (await admin("POST", "/api/capital-calls", callOf("fund-ii"), 201)).id;
      const aDistribution = (
        await admin("POST", "/api/distributions", jsonBody({ fund: "fund-ii", paymentDate: "2024-06-28", lines: [{ type: "return_of_capital", amount: "40000.00", recallable: true }] }), 201)
      ).id;
      await publish("distributions", aDistribution);
      await admin("POST", "/api/valuations", jsonBody({ fund: "fund-ii", date: "2024-06-30", values: [{ entityId: alpha.id, nav: "2100000.00" }] }), 201);
      // One Fund I call to both entities: B reads B's share of it, never A's.
      const shared = (await admin("POST", "/api/capital-calls", callOf("fund-i"), 201)).id;
      await publish("capital-calls", shared);
      await admin("POST", `/api/capital-calls/${shared}/payments`, jsonBody({ entityId: beta.id, amount: "500.00", receivedOn: "2024-03-21" }), 201);
      // A document addressed to A's entity (its members read it), and one to everyone (B's lists are not empty).
      const docTitle = `For Alpha only ${tag}`;
      const upload = async (title: string, entityIds: string[] | "all") => {
        const parts: Part[] = [
          { name: "title", value: title },
          { name: "category", value: "reports" },
          { name: "audience", value: entityIds === "all" ? "all" : "selected" },
          ...(entityIds === "all" ? [] : entityIds.map((id) => ({ name: "recipientEntityIds", value: id }))),
          { name: "file", value: samplePdf(title), filename: `${title}.pdf`, contentType: MIME.pdf },
        ];
        return (await admin("POST", "/api/documents", multipart(parts), 201)).id;
      };
      const aDoc = await upload(docTitle, [alpha.id]);
      const everyoneDoc = await upload(`For everyone ${tag}`, "all");
      // Statements (issue 25): 2024-Q4 of both funds published (every entity valued at its end, P&L rows that tie: no
      // valuation at the quarter before, nothing called in it), A's statements in each and B's in Fund I, their PDFs made.
      const statementsOf = async (fund: string, navs: Array<[string, string]>) => {
        await admin("POST", "/api/valuations", jsonBody({ fund, date: "2024-12-31", values: navs.map(([entityId, nav]) => ({ entityId, nav })) }), 201);
        const csv = [PNL_HEADER, ...navs.map(([entityId, nav]) => [entityId, fund, QUARTER, "-100.00", "0.00", "0.00", "0.00", (Number(nav) + 100).toFixed(2), "0.00"].join(","))].join("\n");
        await admin("POST", `/api/statements/import?fund=${fund}&commit=1`, csvBody(csv), 201);
        return String((await admin("POST", "/api/statements/publish", jsonBody({ fund, quarter: QUARTER }), 202)).jobId);
      };
      const aJob = await statementsOf("fund-ii", [[alpha.id, "2150000.00"]]);
      await statementsOf("fund-i", [
        [alpha.id, "160000.00"],
        [beta.id, "480000.00"],
      ]);
      if (!(await pdfJobsSettled(server))) throw new Error("setup: the PDF jobs did not finish within 30 s");
      type Listed = { id: string; entityId: string; fund: string; documentId: string | null };
      const listed = async (cookie: string) => JSON.parse((await call("GET", "/api/lp/statements", cookie)).text) as Listed[];
      const aStatements = await listed(a.cookie);
      const aStatement = aStatements.find((x) => x.fund === "fund-ii")!;
      const aStatementI = aStatements.find((x) => x.fund === "fund-i")!;
      const bStatement = (await listed(b.cookie)).find((x) => x.entityId === beta.id)!;
      const noticeDoc = (entry: string, entity: string) => dbValue<string>(server, "select document_id from notice_documents where entry_id = ? and entity_id = ?", entry, entity) ?? "";
      const aNotice = noticeDoc(aCall, alpha.id);
      const aSharedNotice = noticeDoc(shared, alpha.id);
      if (!aStatement?.documentId || !aStatementI || !bStatement || !aNotice || !aSharedNotice) {
        throw new Error(`setup: statements or notice PDFs missing: ${JSON.stringify({ aStatements, bStatement, aNotice, aSharedNotice })}`);
      }
      ctx.progress(`setup done (${((Date.now() - started) / 1000).toFixed(1)} s)`);

      // What no answer to B may contain: A's entity (name, id), A's own entries and commitments, A's account.
      const aNeedles = [
        ...[alpha.name as string, alpha.id, aCall, aDraft, aDistribution, alphaFundI, alphaFundII, a.id, a.email, aDoc, docTitle],
        ...[aStatement.id, aStatement.documentId, aStatementI.id, aStatementI.documentId ?? aStatementI.id, aNotice, aSharedNotice, aJob],
      ];
      const namesA = (text: string) => aNeedles.filter((needle) => text.includes(needle));

      // ── (a) B with A's ids, each answer against an unknown id's ────────────────
      const leaks: string[] = [];
      const controlsClosed: string[] = [];
      const adminOnlyOpen: string[] = [];
      const before = dbFingerprint(server);
      type Probe = {
        label: string;
        method: string;
        path: (id: string) => string;
        id: string;
        body?: () => Body;
        headers?: Record<string, string>;
        control?: "owner" | "admin";
        /** What the control's answer shows (default: A's entity's name or the id). */
        shows?: string;
        adminOnly?: boolean;
      };
      const data = (p: string) => `${p}.data`;
      const idProbes: Probe[] = [
        // The investor's routes: a notice (A's call, A's distribution, A's draft), as a page, its loader data, other spellings.
        ...[aCall, aDistribution].flatMap((id): Probe[] => [
          { label: `GET /lp/notices/{A's ${id === aCall ? "call" : "distribution"}}`, method: "GET", path: (x) => `/lp/notices/${x}`, id, control: "owner" },
          { label: `GET /lp/notices/{A's ${id === aCall ? "call" : "distribution"}}.data`, method: "GET", path: (x) => data(`/lp/notices/${x}`), id, control: "owner" },
        ]),
        { label: "GET /lp/notices/{A's call}.data?_routes", method: "GET", path: (x) => `/lp/notices/${x}.data?_routes=routes%2Flp%2Fnotice`, id: aCall, control: "owner" },
        { label: "GET /lp/notices/{A's call}/ (trailing slash)", method: "GET", path: (x) => `/lp/notices/${x}/`, id: aCall },
        { label: "GET /lp/notices/{A's call in capitals}", method: "GET", path: (x) => `/lp/notices/${x.toUpperCase()}`, id: aCall },
        { label: "HEAD /lp/notices/{A's call}", method: "HEAD", path: (x) => `/lp/notices/${x}`, id: aCall },
        { label: "GET /lp/notices/{A's draft}", method: "GET", path: (x) => `/lp/notices/${x}`, id: aDraft },
        // A document addressed to A's entity (issue 24 §2): its file, as B would try it.
        ...(["view", "download"] as const).flatMap((kind): Probe[] => [
          { label: `GET /api/documents/{A's entity's}/${kind}`, method: "GET", path: (x) => `/api/documents/${x}/${kind}`, id: aDoc, control: "owner" },
          { label: `HEAD /api/documents/{A's entity's}/${kind}`, method: "HEAD", path: (x) => `/api/documents/${x}/${kind}`, id: aDoc },
          { label: `Range /api/documents/{A's entity's}/${kind}`, method: "GET", path: (x) => `/api/documents/${x}/${kind}`, id: aDoc, headers: { range: "bytes=0-99" } },
        ]),
        // A's statement (issue 25) as a page, its data and other spellings; its PDF, and the notice PDFs of A's call and of
        // A's share of the shared call (documents addressed to A's entity alone).
        { label: "GET /lp/statements/{A's}", method: "GET", path: (x) => `/lp/statements/${x}`, id: aStatement.id, control: "owner" },
        { label: "GET /lp/statements/{A's}.data", method: "GET", path: (x) => data(`/lp/statements/${x}`), id: aStatement.id, control: "owner" },
        { label: "GET /lp/statements/{A's}/ (trailing slash)", method: "GET", path: (x) => `/lp/statements/${x}/`, id: aStatement.id },
        { label: "GET /lp/statements/{A's in capitals}", method: "GET", path: (x) => `/lp/statements/${x.toUpperCase()}`, id: aStatement.id },
        { label: "HEAD /lp/statements/{A's}", method: "HEAD", path: (x) => `/lp/statements/${x}`, id: aStatement.id },
        { label: "GET /lp/statements/{A's in the fund both hold}", method: "GET", path: (x) => `/lp/statements/${x}`, id: aStatementI.id, control: "owner" },
        ...[
          ["A's statement PDF", aStatement.documentId],
          ["A's notice PDF", aNotice],
          ["A's notice PDF of the shared call", aSharedNotice],
        ].flatMap(([what, id]): Probe[] => [
          { label: `GET /api/documents/{${what}}/download`, method: "GET", path: (x) => `/api/documents/${x}/download`, id: id!, control: "owner" },
          { label: `GET /api/documents/{${what}}/view`, method: "GET", path: (x) => `/api/documents/${x}/view`, id: id! },
          { label: `Range /api/documents/{${what}}/download`, method: "GET", path: (x) => `/api/documents/${x}/download`, id: id!, headers: { range: "bytes=0-99" } },
        ]),
        { label: "GET /api/statements/jobs/{A's quarter's}", method: "GET", path: (x) => `/api/statements/jobs/${x}`, id: aJob, control: "admin", shows: '"total":1', adminOnly: true },
        { label: "POST /admin/funds/{A's fund}/statements restate-quarter", method: "POST", path: (x) => `/admin/funds/${x}/statements`, id: "fund-ii", body: () => formBody({ intent: "restate-quarter", quarter: QUARTER }), adminOnly: true },
        { label: "PATCH /api/documents/{A's entity's} (to everyone)", method: "PATCH", path: (x) => `/api/documents/${x}`, id: aDoc, body: () => jsonBody({ audience: "all" }), adminOnly: true },
        // The admin's routes: JSON reads, pages and their data, with A's ids.
        { label: "GET /api/commitments/{A's}", method: "GET", path: (x) => `/api/commitments/${x}`, id: alphaFundII, control: "admin", adminOnly: true },
        { label: "GET /api/capital-calls/{A's call}", method: "GET", path: (x) => `/api/capital-calls/${x}`, id: aCall, control: "admin", adminOnly: true },
        { label: "GET /api/capital-calls/{A's draft}", method: "GET", path: (x) => `/api/capital-calls/${x}`, id: aDraft, control: "admin", adminOnly: true },
        { label: "GET /api/distributions/{A's}", method: "GET", path: (x) => `/api/distributions/${x}`, id: aDistribution, control: "admin", adminOnly: true },
        { label: "GET /admin/entities/{A's}", method: "GET", path: (x) => `/admin/entities/${x}`, id: alpha.id, control: "admin", adminOnly: true },
        { label: "GET /admin/entities/{A's}.data", method: "GET", path: (x) => data(`/admin/entities/${x}`), id: alpha.id, control: "admin", adminOnly: true },
        // The admin's mutations with A's ids (B adding themself to A's entity, paying, publishing, deleting): refused alike, nothing changed.
        { label: "POST /api/entities/{A's}/members (B as owner)", method: "POST", path: (x) => `/api/entities/${x}/members`, id: alpha.id, body: () => jsonBody({ userId: b.id, role: "owner" }), adminOnly: true },
        { label: "DELETE /api/entities/{A's}/members/{A}", method: "DELETE", path: (x) => `/api/entities/${x}/members/${a.id}`, id: alpha.id, adminOnly: true },
        { label: "PATCH /api/commitments/{A's}", method: "PATCH", path: (x) => `/api/commitments/${x}`, id: alphaFundII, body: () => jsonBody({ amount: "9000000.00", effectiveOn: "2024-06-30" }), adminOnly: true },
        { label: "POST /api/capital-calls/{A's call}/payments", method: "POST", path: (x) => `/api/capital-calls/${x}/payments`, id: aCall, body: () => jsonBody({ entityId: alpha.id, amount: "1.00", receivedOn: "2024-03-22" }), adminOnly: true },
        { label: "POST /api/capital-calls/{A's draft}/publish", method: "POST", path: (x) => `/api/capital-calls/${x}/publish`, id: aDraft, adminOnly: true },
        { label: "DELETE /api/capital-calls/{A's draft}", method: "DELETE", path: (x) => `/api/capital-calls/${x}`, id: aDraft, adminOnly: true },
        { label: "POST /api/distributions/{A's}/publish", method: "POST", path: (x) => `/api/distributions/${x}/publish`, id: aDistribution, adminOnly: true },
        { label: "DELETE /api/distributions/{A's}", method: "DELETE", path: (x) => `/api/distributions/${x}`, id: aDistribution, adminOnly: true },
        { label: "POST /admin/entities/{A's} add-member (B)", method: "POST", path: (x) => `/admin/entities/${x}`, id: alpha.id, body: () => formBody({ intent: "add-member", email: b.email, role: "owner" }), adminOnly: true },
        { label: "POST /admin/entities/{A's} remove-member (A)", method: "POST", path: (x) => `/admin/entities/${x}`, id: alpha.id, body: () => formBody({ intent: "remove-member", userId: a.id }), adminOnly: true },
        // The investor's ledger (§8): its filter naming A's entity (alone, with A's fund), or A's fund alone, as the page, its .data and the CSV.
        ...["/lp/capital-account/ledger", "/lp/capital-account/ledger.data", "/lp/capital-account/ledger.csv"].flatMap((p): Probe[] => [
          { label: `GET ${p}?entity={A's}`, method: "GET", path: (x) => `${p}?entity=${x}`, id: alpha.id, control: "owner" },
          { label: `GET ${p}?entity={A's}&fund=fund-ii`, method: "GET", path: (x) => `${p}?entity=${x}&fund=fund-ii`, id: alpha.id },
        ]),
        { label: "GET /lp/capital-account/ledger.csv?fund={A's fund, not B's}", method: "GET", path: (x) => `/lp/capital-account/ledger.csv?fund=${x}`, id: "fund-ii" },
        // The admin's ledger pages with A's entries: the call's page, the draft's change form, their actions.
        { label: "GET /admin/ledger/{A's call}", method: "GET", path: (x) => `/admin/ledger/${x}`, id: aCall, control: "admin", adminOnly: true },
        { label: "GET /admin/ledger/{A's draft}/change", method: "GET", path: (x) => `/admin/ledger/${x}/change`, id: aDraft, control: "admin", adminOnly: true },
        { label: "POST /admin/ledger/{A's draft} publish", method: "POST", path: (x) => `/admin/ledger/${x}`, id: aDraft, body: () => formBody({ intent: "publish" }), adminOnly: true },
        { label: "POST /admin/ledger/{A's call} record-payment", method: "POST", path: (x) => `/admin/ledger/${x}`, id: aCall, body: () => formBody({ intent: "record-payment", entityId: alpha.id, amount: "1.00", receivedOn: "2024-03-22" }), adminOnly: true },
        { label: "POST /admin/ledger/{A's draft}/change preview", method: "POST", path: (x) => `/admin/ledger/${x}/change`, id: aDraft, body: () => formBody(ledgerFormFields("call", "preview")), adminOnly: true },
        ...(PLANT
          ? [
              { label: "planted: B's own notice as if it were A's", method: "GET", path: (x: string) => `/lp/notices/${x}`, id: shared },
              { label: "planted: B's own entity in the ledger export's filter as if it were A's", method: "GET", path: (x: string) => `/lp/capital-account/ledger.csv?entity=${x}`, id: beta.id },
            ]
          : []),
      ];
      for (const probe of idProbes) {
        const unknownId = randomUUID();
        const asB = await call(probe.method, probe.path(probe.id), b.cookie, probe.body?.(), probe.headers);
        const unknown = await call(probe.method, probe.path(unknownId), b.cookie, probe.body?.(), probe.headers);
        const named = namesA(withoutAsked(asB.text, probe.id));
        // An investor's route answers an id that is not theirs with the unknown id's 404; the admin's refuse B before any id is read.
        if (fingerprint(asB, probe.id) !== fingerprint(unknown, unknownId) || named.length || (!probe.adminOnly && asB.status !== 404)) {
          leaks.push(`${probe.label}: B got ${asB.status}${named.length ? ` naming ${named.length} of A's` : ""}, an unknown id ${unknown.status}`);
        }
        if (probe.adminOnly) {
          const refused = asB.status === 403 || asB.status === 404 || /^\/(admin|lp)\/login\b/.test(redirectTarget(asB));
          if (!refused || named.length) adminOnlyOpen.push(`${probe.label}: ${asB.status} ${headerValue(asB, "location")}`);
        }
        if (probe.control) {
          const cookie = probe.control === "owner" ? a.cookie : portal.adminCookie;
          const control = await call(probe.method, probe.path(probe.id), cookie);
          const file = control.text.startsWith("%PDF");
          const shown = probe.shows ? control.text.includes(probe.shows) : control.text.includes(alpha.name as string) || control.text.includes(probe.id);
          if (control.status !== 200 || (!file && !shown)) {
            controlsClosed.push(`${probe.label} as ${probe.control === "owner" ? "A" : "the admin"}: ${control.status}`);
          }
        }
      }

      // The lists B reads: never a word of A's; B's own entity is there (else the check proves nothing); A's same lists show A's.
      // Each list with what B's answer must hold (B's own) and A's (A's own).
      const lists: Array<[string, string, string]> = [
        ["/api/entities", beta.name as string, alpha.name as string],
        ["/api/lp/capital-account", beta.name as string, alpha.name as string],
        ["/lp/capital-account", beta.name as string, alpha.name as string],
        ["/lp/capital-account.data", beta.name as string, alpha.name as string],
        [`/lp/notices/${shared}`, beta.name as string, alpha.name as string],
        [`/lp/notices/${shared}.data`, beta.name as string, alpha.name as string],
        ["/api/documents", everyoneDoc, aDoc],
        ["/lp/dashboard", everyoneDoc, aDoc],
        ["/lp/dashboard.data", everyoneDoc, aDoc],
        // The full ledger (§8), unfiltered and by the fund both are called in: B's rows only.
        ["/lp/capital-account/ledger", beta.name as string, alpha.name as string],
        ["/lp/capital-account/ledger.data", beta.name as string, alpha.name as string],
        ["/lp/capital-account/ledger.csv", beta.name as string, alpha.name as string],
        ["/lp/capital-account/ledger.csv?fund=fund-i", beta.name as string, alpha.name as string],
        // Statements (issue 25): B's own list (Fund I: the fund both hold), as JSON, the page and its data.
        ["/api/lp/statements", bStatement.id, aStatementI.id],
        ["/lp/statements", beta.name as string, alpha.name as string],
        ["/lp/statements.data", beta.name as string, alpha.name as string],
      ];
      const describe = (n: string) => (n === alpha.name ? "the entity's name" : n === a.email ? "A's e-mail" : n === docTitle ? "the document's title" : `id ${n.slice(0, 8)}…`);
      for (const [path, own, theirs] of lists) {
        const asB = await call("GET", path, b.cookie);
        const asA = await call("GET", path, a.cookie);
        const named = namesA(asB.text);
        if (asB.status !== 200 || !asB.text.includes(own)) leaks.push(`${path}: B's answer ${asB.status} lacks B's own (the check would prove nothing)`);
        if (named.length) leaks.push(`${path}: B's answer names A's: ${named.map(describe).join(", ")}`);
        if (asA.status !== 200 || !asA.text.includes(theirs)) controlsClosed.push(`${path} as A: ${asA.status}, A's own ${asA.text.includes(theirs) ? "there" : "missing"}`);
      }
      const changedByB = changedTables(before, dbFingerprint(server)).filter((name) => WATCHED_TABLES.includes(name));
      // The comparison can tell: B's own notice (the shared call) is unlike an unknown id's.
      const ownId = randomUUID();
      const own =
        fingerprint(await call("GET", `/lp/notices/${shared}`, b.cookie), shared) !== fingerprint(await call("GET", `/lp/notices/${ownId}`, b.cookie), ownId) &&
        fingerprint(await call("GET", `/lp/statements/${bStatement.id}`, b.cookie), bStatement.id) !== fingerprint(await call("GET", `/lp/statements/${ownId}`, b.cookie), ownId);

      // Membership is the one rule: B made a viewer of A's entity reads its notice and document; removed, at once nothing again.
      const asMember = async () => [
        await call("GET", `/lp/notices/${aCall}`, b.cookie),
        await call("GET", `/api/documents/${aDoc}/view`, b.cookie),
        await call("GET", "/api/lp/capital-account", b.cookie),
        await call("GET", `/lp/statements/${aStatement.id}`, b.cookie),
        await call("GET", `/api/documents/${aStatement.documentId}/download`, b.cookie),
      ];
      await admin("POST", `/api/entities/${alpha.id}/members`, jsonBody({ userId: b.id, role: "viewer" }), 201);
      const whileMember = await asMember();
      await admin("DELETE", `/api/entities/${alpha.id}/members/${b.id}`, undefined, 200);
      const afterRemoval = await asMember();
      const [noticeGone, docGone, accountGone, statementGone, statementPdfGone] = afterRemoval;
      const unknownNotice = randomUUID();
      const unknownDoc = randomUUID();
      const membershipOk =
        whileMember[0]!.status === 200 &&
        whileMember[0]!.text.includes(alpha.name as string) &&
        whileMember[1]!.status === 200 &&
        whileMember[2]!.text.includes(alpha.id) &&
        whileMember[3]!.status === 200 &&
        whileMember[3]!.text.includes(alpha.name as string) &&
        whileMember[4]!.status === 200 &&
        whileMember[4]!.text.startsWith("%PDF");
      const removedOk =
        fingerprint(noticeGone!, aCall) === fingerprint(await call("GET", `/lp/notices/${unknownNotice}`, b.cookie), unknownNotice) &&
        fingerprint(docGone!, aDoc) === fingerprint(await call("GET", `/api/documents/${unknownDoc}/view`, b.cookie), unknownDoc) &&
        fingerprint(statementGone!, aStatement.id) === fingerprint(await call("GET", `/lp/statements/${unknownNotice}`, b.cookie), unknownNotice) &&
        fingerprint(statementPdfGone!, aStatement.documentId) === fingerprint(await call("GET", `/api/documents/${unknownDoc}/download`, b.cookie), unknownDoc) &&
        namesA(accountGone!.text).length === 0;

      t.info("(a) B's requests with A's ids (each beside an unknown id's)", idProbes.length);
      t.info("(a) lists B reads (JSON, page, .data, the shared call's notice)", lists.length);
      t.count("(a) controls that did not open (A's notices and lists, the admin's reads)", controlsClosed.length, 0, controlsClosed.slice(0, 3).join("; "));
      t.count("(a) cross-entity reads (answers unlike an unknown id's, or naming A's entity, ids or entries)", leaks.length, 0, leaks.slice(0, 3).join("; "));
      t.count("(a) admin-only routes that answered B other than 403 / 404 / a sign-in redirect, or with content", adminOnlyOpen.length, 0, adminOnlyOpen.slice(0, 3).join("; "));
      t.count("(a) capital and document tables changed by B's requests", changedByB.length, 0, changedByB.join(", "));
      t.check("(a) control: the comparison tells B's own notice and statement from an unknown id's", own, "B's notice of the shared call or B's statement answers like an unknown id");
      t.check("(a) control: B made a viewer of A's entity reads its notice, document, account, statement and its PDF", membershipOk, whileMember.map((x) => x.status).join(", "));
      t.check("(a) B removed: the notice, the document, the account, the statement and its PDF are closed at once (as an unknown id)", removedOk, afterRemoval.map((x) => x.status).join(", "));
      for (const line of [...leaks, ...controlsClosed, ...adminOnlyOpen].slice(0, 8)) t.note(`(a) ${line}`);
      ctx.progress(`(a) done (${((Date.now() - started) / 1000).toFixed(1)} s)`);

      // ── (b) a published call never changes ──────────────────────────────────
      const rowsBefore = entryRows(server, aCall);
      const readBefore = (await call("GET", `/api/capital-calls/${aCall}`, portal.adminCookie)).text;
      const read = JSON.parse(readBefore) as { reference: string; entities: Array<{ entityId: string; outstanding: string }> };
      // Its notice mails: "{fund}: {reference} for {entity}" (app/content/capital.ts ledgerMails), only A's entity called.
      const fundName = dbValue<string>(server, "select name from funds where slug = 'fund-ii'") ?? "";
      const noticeMails = () => dbValue<number>(server, "select count(*) from email_outbox where subject = ?", `${fundName}: ${read.reference} for ${alpha.name as string}`) ?? 0;
      const payments = () => JSON.stringify(openRows(server, "select * from call_payments where entry_id = ? order by rowid", aCall));
      const published = () => dbValue<number>(server, "select count(*) from audit_events where event = 'capital_call.published' and target_id = ?", aCall) ?? 0;
      const [mailsBefore, paymentsBefore, publishedBefore] = [noticeMails(), payments(), published()];
      const outstanding = read.entities.find((e) => e.entityId === alpha.id)?.outstanding ?? "0.00";
      const aboveMinor = (BigInt(outstanding.replace(".", "")) + 1n).toString().padStart(3, "0");
      const above = `${aboveMinor.slice(0, -2)}.${aboveMinor.slice(-2)}`;

      type Attempt = { label: string; method: string; path: string; body?: Body; expect: number; check?: (answer: HttpAnswer) => boolean };
      const draftBody = () => callOf("fund-ii");
      const pay = (entityId: string, amount: string): Body => jsonBody({ entityId, amount, receivedOn: "2024-03-25" });
      const attempts: Attempt[] = [
        // What "publish splits again over the commitments in force" would see now: a raise of A's and a new entity of B's, both before its date.
        { label: "raise A's Fund II commitment from before the call's date", method: "PATCH", path: `/api/commitments/${alphaFundII}`, body: jsonBody({ amount: "4000000.00", effectiveOn: "2024-02-01" }), expect: 200 },
        ...[1, 2, 3].map((n): Attempt => ({ label: `publish again (${n})`, method: "POST", path: `/api/capital-calls/${aCall}/publish`, expect: 200, check: (x) => x.text === '{"status":"published"}' })),
        { label: "publish again with a draft body", method: "POST", path: `/api/capital-calls/${aCall}/publish`, body: draftBody(), expect: 200 },
        { label: "DELETE it", method: "DELETE", path: `/api/capital-calls/${aCall}`, expect: 409 },
        { label: "POST a draft body to its id", method: "POST", path: `/api/capital-calls/${aCall}`, body: draftBody(), expect: 405 },
        { label: "PUT a draft body to its id", method: "PUT", path: `/api/capital-calls/${aCall}`, body: draftBody(), expect: 405 },
        { label: "PATCH a draft body to its id", method: "PATCH", path: `/api/capital-calls/${aCall}`, body: draftBody(), expect: 405 },
        { label: "a draft body to its payments", method: "POST", path: `/api/capital-calls/${aCall}/payments`, body: draftBody(), expect: 400 },
        { label: "publish it as a distribution", method: "POST", path: `/api/distributions/${aCall}/publish`, expect: 404 },
        { label: "DELETE it as a distribution", method: "DELETE", path: `/api/distributions/${aCall}`, expect: 404 },
        { label: `a payment 0.01 above the ${outstanding} outstanding`, method: "POST", path: `/api/capital-calls/${aCall}/payments`, body: pay(alpha.id, above), expect: 400 },
        { label: "a payment far above it", method: "POST", path: `/api/capital-calls/${aCall}/payments`, body: pay(alpha.id, "90000000000.00"), expect: 400 },
        { label: "a payment of 0.00", method: "POST", path: `/api/capital-calls/${aCall}/payments`, body: pay(alpha.id, "0.00"), expect: 400 },
        { label: "a payment of -1.00", method: "POST", path: `/api/capital-calls/${aCall}/payments`, body: pay(alpha.id, "-1.00"), expect: 400 },
        { label: "a payment from B's entity (not called)", method: "POST", path: `/api/capital-calls/${aCall}/payments`, body: pay(beta.id, "1.00"), expect: 400 },
        { label: "the admin's fund page posted a draft", method: "POST", path: "/admin/funds/fund-ii", body: formBody({ intent: "publish", id: aCall }), expect: 405 },
        // The ledger pages' forms (§4: "a published call is never edited"): its change form sends back to its page, unchanged.
        ...LEDGER_FORM_INTENTS.map((intent): Attempt => ({
          label: `its change form (${intent})`,
          method: "POST",
          path: `/admin/ledger/${aCall}/change`,
          body: formBody(ledgerFormFields("call", intent, [{ type: "investment", amount: "999999.99", description: "Changed" }])),
          expect: 303,
          check: (x) => headerValue(x, "location") === `/admin/ledger/${aCall}`,
        })),
        { label: "delete-draft from its page", method: "POST", path: `/admin/ledger/${aCall}`, body: formBody({ intent: "delete-draft" }), expect: 409 },
        { label: "publish again from its page", method: "POST", path: `/admin/ledger/${aCall}`, body: formBody({ intent: "publish" }), expect: 303, check: (x) => headerValue(x, "location") === `/admin/ledger/${aCall}` },
        { label: `a payment 0.01 above the outstanding from its page`, method: "POST", path: `/admin/ledger/${aCall}`, body: formBody({ intent: "record-payment", entityId: alpha.id, amount: above, receivedOn: "2024-03-25" }), expect: 400 },
        { label: "a payment from B's entity from its page", method: "POST", path: `/admin/ledger/${aCall}`, body: formBody({ intent: "record-payment", entityId: beta.id, amount: "1.00", receivedOn: "2024-03-25" }), expect: 400 },
      ];
      // A new entity of B's with a Fund II commitment in force on the call's date: a re-split would hand it a share of A's call.
      const gamma = await entity(`Gamma Holdings ${tag}`, b.id);
      await commit(gamma.id, "fund-ii", "2000000.00", "2024-01-01");
      attempts.push({ label: "a payment from an entity committed since (not called)", method: "POST", path: `/api/capital-calls/${aCall}/payments`, body: pay(gamma.id, "1.00"), expect: 400 });
      let correction = "";
      attempts.push({
        label: "a correction: a NEW entry with correctionOf (allowed)",
        method: "POST",
        path: "/api/capital-calls",
        body: callOf("fund-ii", { correctionOf: aCall }),
        expect: 201,
        check: (x) => {
          const made = JSON.parse(x.text) as { id: string; correctionOf: string; status: string };
          correction = made.id;
          return made.id !== aCall && made.correctionOf === aCall && made.status === "draft";
        },
      });
      const unexpected: string[] = [];
      for (const attempt of attempts) {
        const answer = await call(attempt.method, attempt.path, portal.adminCookie, attempt.body);
        if (answer.status !== attempt.expect || (attempt.check && !attempt.check(answer))) unexpected.push(`${attempt.label}: ${answer.status} ${answer.text.slice(0, 100)} (expected ${attempt.expect})`);
      }
      // The correction published: its own number and mails; the call it corrects stays as it was.
      const correctionPublished = correction ? await call("POST", `/api/capital-calls/${correction}/publish`, portal.adminCookie) : null;
      const correctionRead = correction ? (JSON.parse((await call("GET", `/api/capital-calls/${correction}`, portal.adminCookie)).text) as { reference: string | null; status: string }) : null;

      if (PLANT) {
        const db = openDatabase(server, false);
        db.prepare("update ledger_allocations set amount_minor = amount_minor + 1 where entry_id = ? and position = 0").run(aCall);
        db.close();
      }
      const rowsAfter = entryRows(server, aCall);
      const readAfter = (await call("GET", `/api/capital-calls/${aCall}`, portal.adminCookie)).text;
      const bNotice = await call("GET", `/lp/notices/${aCall}`, b.cookie);
      const bUnknownId = randomUUID();
      const bUnknown = await call("GET", `/lp/notices/${bUnknownId}`, b.cookie);
      t.info("(b) attempts to change the published call (as the admin)", attempts.length);
      t.count("(b) attempts answered otherwise than expected", unexpected.length, 0, unexpected.slice(0, 3).join("; "));
      for (const line of unexpected.slice(0, 6)) t.note(`(b) ${line}`);
      t.count("(b) changes to the published call's rows (ledger_entries, ledger_lines, ledger_allocations)", rowsBefore === rowsAfter ? 0 : 1, 0, `before ${rowsBefore.slice(0, 160)} after ${rowsAfter.slice(0, 160)}`);
      t.check("(b) its read (GET /api/capital-calls/{id}) is the same", readBefore === readAfter, `${readBefore.slice(0, 120)} → ${readAfter.slice(0, 120)}`);
      t.check("(b) its payments are the same (the refused ones recorded nothing)", payments() === paymentsBefore, "call_payments rows changed");
      t.count(`(b) notice mails of ${read.reference} queued again (${mailsBefore} at publishing)`, noticeMails() - mailsBefore, 0);
      t.count("(b) capital_call.published audit rows added for it", published() - publishedBefore, 0);
      t.check(
        "(b) the correction is a new entry with its own number",
        correctionPublished?.status === 200 && !!correctionRead?.reference && correctionRead.reference !== read.reference && correctionRead.status === "published",
        `publish ${correctionPublished?.status}, reference ${correctionRead?.reference}`,
      );
      t.check("(b) B still reads A's call as an unknown id (the new entity of B's got no share)", fingerprint(bNotice, aCall) === fingerprint(bUnknown, bUnknownId) && bNotice.status === 404, `B got ${bNotice.status}`);

      t.info("requests made", requests);
      t.count("5xx answers", serverErrors, 0);
      if (PLANT) t.note("HARDENING_PLANT=1: a cross-entity read and a change to the published call planted");
      t.count("server crashes", server.unexpectedExits(), 0);
    } finally {
      await server.stop();
    }
    t.info("section time (s)", ((Date.now() - started) / 1000).toFixed(1));
    return t.result();
  },
};

/**
 * Where an answer sends the browser: a redirect's Location, or the redirect a
 * .data answer carries (React Router's single fetch: 202 and
 * `[["SingleFetchRedirect",1],{…},"redirect","/admin/login",…]`).
 */
function redirectTarget(answer: HttpAnswer): string {
  if (answer.status >= 300 && answer.status < 400) return headerValue(answer, "location");
  if (answer.status !== 202 || !answer.text.startsWith('[["SingleFetchRedirect"')) return "";
  try {
    const items = JSON.parse(answer.text.split("\n")[0]!) as unknown[];
    const to = items[items.indexOf("redirect") + 1];
    return typeof to === "string" ? to : "";
  } catch {
    return "";
  }
}

function openRows(server: AppServer, sql: string, ...params: unknown[]): unknown[] {
  const db = openDatabase(server);
  try {
    return db.prepare(sql).raw().all(...params);
  } finally {
    db.close();
  }
}

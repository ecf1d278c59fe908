/**
 * Injection: SQL payloads in every text field of every JSON, form and upload
 * endpoint, in the dashboard's and exports' query parameters and in path ids
 * (no 5xx, no table dropped or shrunk, no existing row changed, no sign-in or
 * token check passed, payloads stored verbatim where valid); CR/LF in values
 * that reach mail headers (mails caught by a real SMTP server) and HTTP
 * response headers (Content-Disposition, Location); strangers' names,
 * companies and messages with links and line breaks in the bodies of mails to
 * the addresses they typed (no link but the firm's, no line of their own);
 * stored XSS through every
 * text field the admin and investor pages render, loaded in Chromium with
 * JavaScript on (as served, and with CSP bypassed so escaping alone is
 * tested) and scanned as raw HTML; formula payloads in the CSV/TSV exports.
 *
 * Capital accounts (issue 24): the JSON endpoints' and the entity, ledger
 * (lines.{n}.*, dates, a payment) and fund pages' fields, the valuations
 * import's CSV cells (entity names, ids, fund, date, NAV; confirmed, so a row
 * a payload got through would be written) and the payment instructions'
 * fields and code (a payload saved with a fresh code is stored as typed); ids
 * and slugs in their paths and the investor ledger's filters. XSS through a
 * draft's line descriptions and entity names (its page, its change form), the
 * valuations preview of a file naming hostile entities (the upload's answer,
 * loaded as the browser posts it), and the investor's ledger and its CSV
 * (formula entity names neutralized).
 *
 * Statements (issue 25): the P&L import's cells (the entity by name, the fund,
 * the quarter; confirmed through the JSON route with commit=1 and the page's
 * confirm, so a row a payload got through would be written), the fund and
 * quarter of a publish (JSON and page) and of a restate, the history upload's
 * entity and event cells and its confirm's staged name, hash and signature;
 * slugs and ids in the import routes, a statement's page and a PDF job's read.
 * XSS through the P&L and history previews (the uploads' answers: entity
 * names resolved and as typed, a call's reference, the file's name), and the
 * statements of hostile entities (the name frozen in each: the owner's list
 * and a statement's page). Issue 25 adds no CSV
 * export (app/routes.ts): the formula checks stay the exports' above.
 *
 * HARDENING_PLANT=1 plants a fault under each check (a changed and a deleted
 * row, a real sign-in, a 500, a mis-stored value, a valid address among the
 * CR/LF ones, an injected mail header, a stranger's link in a mail body, a
 * response head with an extra header,
 * an unescaped payload in a page's HTML and in the browser, an HTML page among
 * the exports, a loose and a missing formula cell, a loose cell in the ledger
 * export, payment instructions stored otherwise, a wrong health path).
 */
import { randomUUID } from "node:crypto";
import { formStampWith } from "../app/modules/pitches/form-stamp.server";
import { statementFixture } from "../tests/helpers/pdf-docs";
import {
  approvedInvestor,
  confirmRegistration,
  jsonBody,
  openDatabase,
  request,
  SESSION_SECRET,
  signIn,
  startMailCatcher,
  Tally,
  type CaughtMail,
  type Context,
  type HttpAnswer,
  type Section,
} from "./harness";
import { bodyOf, browsePages, clientHeaders, drainOutbox, headerNames, mailHeaders, multipart, parseCsv, PASSWORD, rawHead } from "./hostile-helpers";
import { send, setUpFixture, unique, uploadParts, type Fixture, type Visit } from "./hostile-helpers";
import { nextTotpCode } from "../tests/support/totp";
import {
  CAPITAL_DATES,
  CAPITAL_FUND,
  callBody,
  csvBody,
  HISTORY_DATE,
  HISTORY_HEADER,
  ledgerFormFields,
  PAYMENT_DETAILS,
  pdfJobsSettled,
  PNL_AMOUNTS,
  PNL_HEADER,
  STATEMENT_QUARTERS,
} from "./web-helpers";

const PLANT = process.env.HARDENING_PLANT === "1";

const SQL = [
  "' OR 1=1 --",
  "' OR '1'='1",
  '"; DROP TABLE lp_users; --',
  "'; DELETE FROM documents; --",
  "' UNION SELECT email, password_hash, name, company, status, is_admin, id, created_at FROM lp_users --",
  "1' AND (SELECT count(*) FROM sqlite_master) > 0 --",
  "') OR ('x'='x",
  "admin'--",
  "1; UPDATE lp_users SET is_admin = 1, status = 'approved' --",
  "%' OR name LIKE '%",
];
/** E-mail-shaped payloads (the only kind an e-mail field accepts). */
const SQL_EMAILS = ["o'brien'--@example.com", "x'or'1'--@example.com"];

type Kind = Parameters<typeof bodyOf>[0];
type Values = Record<string, string>;
type Spec = {
  method: string;
  path: string;
  kind: Kind;
  fileField?: string;
  admin?: boolean;
  base: () => Values;
  fields: string[];
  table?: string;
  evidence?: (a: HttpAnswer) => boolean;
  /** A JSON body with lists of objects (entity members, ledger lines, valuations), made from the flat values. */
  shape?: (v: Values) => unknown;
  /** Where a valid payload in `field` is stored (a column matched exactly); checked like the fields of `table`. */
  stored?: { field: string; table: string; column: string };
  /** A body of its own made from the values (the valuations import's CSV file). */
  build?: (v: Values) => { headers: Record<string, string>; body: string | Buffer };
};

const mail = () => `inj-${unique()}@example.com`;
const PITCH = () => ({ name: "Ada", email: mail(), company: "Acme", stage: "Seed", deckUrl: "https://example.com/deck.pdf", message: "Hello" });
/** The pitch form as a person sends it: with the page's signed render time, a minute old (else it is trapped as spam and stores nothing; decision 026). */
const PITCH_FORM = () => ({ ...PITCH(), formStamp: formStampWith(SESSION_SECRET, Date.now() - 60_000) });
const ACCOUNT = () => ({ email: mail(), password: PASSWORD, name: "Ada", company: "Acme" });
const SIGNUP = (fundId: string) => () => ({ name: "Ada", email: mail(), fundId, company: "Acme", phone: "+1 555 0100", accreditedConfirmation: "true" });
const UPLOAD = (fundId?: string) => () => ({ title: `t-${unique()}`, description: `d-${unique()}`, category: fundId ? "fund_documents" : "reports", ...(fundId ? { fundId } : {}), filename: "r.pdf" });
const ok2xx = (a: HttpAnswer) => a.status >= 200 && a.status < 300;

function sqlSpecs(fx: Fixture, victims: string[], changeDraftId = ""): Spec[] {
  // Any session cookie is evidence: for the admin (two-factor on) a password that passed would set the code step's challenge cookie.
  const session = (a: HttpAnswer) => (a.headers["set-cookie"] ?? []).some((c) => c.startsWith(`${fx.sessionCookie}=`) && !/^[^=]+=;/.test(c) && !/max-age=0/i.test(c));
  const login = (path: string, email: string, kind: Kind): Spec => ({ method: "POST", path, kind, base: () => ({ email, password: "wrong-password-0" }), fields: ["email", "password"], evidence: session });
  const pageOf: Record<string, string> = {
    status: "/admin/investors",
    "delete-document": "/admin/documents",
    "revoke-fund-access": "/admin/fund-access",
    "resend-fund-access-link": "/admin/fund-access",
    "delete-fund-document": "/admin/fund-access",
    "remind-unopened": `/admin/documents/${fx.ids.lpDoc}/access`,
  };
  const intent = (name: string, idField: string): Spec => ({ method: "POST", path: pageOf[name] ?? "/admin/dashboard", kind: "form", admin: true, base: () => ({ intent: name, [idField]: "x", status: "approved" }), fields: [idField, "intent"] });
  return [
    { method: "POST", path: "/api/newsletter", kind: "json", base: () => ({ email: mail() }), fields: ["email"], table: "newsletter_subscribers" },
    { method: "POST", path: "/newsletter", kind: "form", base: () => ({ email: mail(), redirectTo: "/newsletter" }), fields: ["email", "redirectTo", "formId"], table: "newsletter_subscribers" },
    { method: "POST", path: "/api/pitch", kind: "json", base: PITCH, fields: Object.keys(PITCH()), table: "pitch_submissions" },
    { method: "POST", path: "/process", kind: "form", base: PITCH_FORM, fields: Object.keys(PITCH()), table: "pitch_submissions" },
    // The pitch with its deck (multipart; the deck's file name is not stored as given, so no stored check).
    { method: "POST", path: "/api/pitch", kind: "multipart", fileField: "deck", base: () => ({ ...PITCH(), filename: "deck.pdf" }), fields: [...Object.keys(PITCH()), "filename"] },
    { method: "POST", path: "/process", kind: "multipart", fileField: "deck", base: () => ({ ...PITCH_FORM(), filename: "deck.pdf" }), fields: [...Object.keys(PITCH()), "filename"] },
    // The bulk upload's text fields (staged, not stored in a table until published).
    { method: "POST", path: "/admin/documents/bulk", kind: "multipart", fileField: "files", admin: true, base: UPLOAD(), fields: ["title", "description", "category", "filename"] },
    // A registration's values wait in registration_requests until its address is confirmed (decision 028).
    { method: "POST", path: "/api/auth/register", kind: "json", base: ACCOUNT, fields: Object.keys(ACCOUNT()), table: "registration_requests" },
    { method: "POST", path: "/lp/register", kind: "form", base: ACCOUNT, fields: Object.keys(ACCOUNT()), table: "registration_requests" },
    // Its confirmation: a password field and the link's token (made up here: the page answers 400 and nothing is made).
    {
      method: "POST",
      path: `/lp/register/confirm?token=${"t".repeat(43)}`,
      kind: "form",
      base: () => ({ password: PASSWORD }),
      fields: ["password"],
      evidence: (a) => a.status >= 300 && a.status < 400,
    },
    { method: "POST", path: "/lp/register/confirm", kind: "form", base: () => ({ intent: "resend", email: victims[0]! }), fields: ["intent", "email"] },
    { method: "POST", path: "/api/fund-access/register", kind: "json", base: SIGNUP("fund-i"), fields: ["name", "email", "fundId", "company", "phone"], table: "fund_access_users" },
    { method: "POST", path: "/fund-i/signup", kind: "form", base: SIGNUP("fund-i"), fields: ["name", "email", "company", "phone"], table: "fund_access_users" },
    { method: "POST", path: "/fund-ii/signup", kind: "form", base: SIGNUP("fund-ii"), fields: ["name", "email", "company", "phone"], table: "fund_access_users" },
    { method: "POST", path: "/api/documents", kind: "multipart", admin: true, base: UPLOAD(), fields: ["title", "description", "category", "filename"], table: "documents" },
    { method: "POST", path: "/admin/documents", kind: "multipart", admin: true, base: UPLOAD(), fields: ["title", "description", "category", "filename"], table: "documents" },
    { method: "POST", path: "/api/fund-documents", kind: "multipart", admin: true, base: UPLOAD("fund-ii"), fields: ["title", "description", "category", "fundId", "filename"], table: "fund_documents" },
    { method: "POST", path: "/admin/fund-documents", kind: "multipart", admin: true, base: UPLOAD("fund-i"), fields: ["title", "description", "category", "fundId", "filename"], table: "fund_documents" },
    login("/api/auth/login", victims[0]!, "json"),
    login("/login", victims[1]!, "form"),
    login("/lp/login", victims[2]!, "form"),
    login("/admin/login", fx.adminEmail, "form"),
    { method: "POST", path: "/api/fund-access/validate-token", kind: "json", base: () => ({ token: "x" }), fields: ["token"], evidence: (a) => a.text.includes('"valid":true') || !!a.headers["set-cookie"] },
    { method: "POST", path: "/lp/forgot-password", kind: "form", base: () => ({ email: victims[0]! }), fields: ["email"] },
    { method: "POST", path: "/lp/reset-password", kind: "form", base: () => ({ token: "t".repeat(43), password: PASSWORD }), fields: ["token", "password"], evidence: (a) => a.status >= 300 && a.status < 400 },
    { method: "POST", path: "/theme", kind: "form", base: () => ({ theme: "dark", redirectTo: "/" }), fields: ["theme", "redirectTo"] },
    { method: "PATCH", path: `/api/auth/users/${fx.ids.user}/status`, kind: "json", admin: true, base: () => ({ status: "rejected" }), fields: ["status"] },
    { method: "PUT", path: `/api/auth/users/${fx.ids.user}/reference-code`, kind: "json", admin: true, base: () => ({ referenceCode: "" }), fields: ["referenceCode"] },
    {
      method: "POST",
      path: "/admin/investors",
      kind: "form",
      admin: true,
      base: () => ({ intent: "set-reference-code", userId: fx.ids.user, referenceCode: "", query: "?q=x" }),
      fields: ["userId", "referenceCode", "query"],
    },
    intent("remind-unopened", "documentId"),
    intent("status", "userId"),
    intent("delete-document", "documentId"),
    intent("revoke-fund-access", "requestId"),
    intent("resend-fund-access-link", "requestId"),
    intent("delete-fund-document", "documentId"),
    ...capitalSpecs(fx, changeDraftId),
  ];
}

/**
 * Capital accounts (issue 24): every text field of the JSON endpoints and the
 * entity pages' forms (entity name, member role, line types and descriptions,
 * amounts, dates, ids). Each base is valid, so only the payload can refuse it;
 * names and descriptions are valid text and must be stored as typed.
 */
function capitalSpecs(fx: Fixture, changeDraftId: string): Spec[] {
  const c = fx.capital;
  const d = CAPITAL_DATES;
  const line = (v: Values) => [{ type: v.type, amount: v.amount, description: v.description }];
  const name = { field: "name", table: "entities", column: "name" };
  const description = { field: "description", table: "ledger_lines", column: "description" };
  const form = (path: string, intent: string, base: Values, fields: string[], stored?: Spec["stored"]): Spec => ({
    method: "POST",
    path,
    kind: "form",
    admin: true,
    base: () => ({ intent, ...base }),
    fields,
    ...(stored ? { stored } : {}),
  });
  const json = (method: string, path: string, base: () => Values, fields: string[], extra: Partial<Spec> = {}): Spec => ({ method, path, kind: "json", admin: true, base, fields, ...extra });
  return [
    json("POST", "/api/entities", () => ({ name: `Entity ${unique()}`, kind: "company", userId: c.ownerId, role: "owner" }), ["name", "kind", "userId", "role"], {
      shape: (v) => ({ name: v.name, kind: v.kind, members: [{ userId: v.userId, role: v.role }] }),
      stored: name,
    }),
    json("POST", `/api/entities/${c.entityId}/members`, () => ({ userId: c.newcomerId, role: "viewer" }), ["userId", "role"]),
    json("POST", "/api/commitments", () => ({ entityId: c.entityId, fund: "fund-ii", amount: "1000.00", acceptedOn: d.accepted }), ["entityId", "fund", "amount", "acceptedOn"]),
    json("PATCH", `/api/commitments/${c.commitmentId}`, () => ({ amount: "9000000.00", effectiveOn: d.raised }), ["amount", "effectiveOn"]),
    json(
      "POST",
      "/api/capital-calls",
      () => ({ fund: "fund-i", noticeDate: d.notice, dueDate: d.due, type: "investment", amount: "1000.00", description: `Call ${unique()}`, correctionOf: c.publishedCallId }),
      ["fund", "noticeDate", "dueDate", "type", "amount", "description", "correctionOf"],
      { shape: (v) => ({ fund: v.fund, noticeDate: v.noticeDate, dueDate: v.dueDate, lines: line(v), correctionOf: v.correctionOf }), stored: description },
    ),
    json(
      "POST",
      "/api/distributions",
      () => ({ fund: "fund-i", paymentDate: d.distributed, type: "income", amount: "1000.00", description: `Distribution ${unique()}`, correctionOf: c.publishedDistributionId }),
      ["fund", "paymentDate", "type", "amount", "description", "correctionOf"],
      { shape: (v) => ({ fund: v.fund, paymentDate: v.paymentDate, lines: line(v), correctionOf: v.correctionOf }), stored: description },
    ),
    json("POST", `/api/capital-calls/${c.publishedCallId}/payments`, () => ({ entityId: c.entityId, amount: "1.00", receivedOn: d.paid }), ["entityId", "amount", "receivedOn"]),
    json("POST", "/api/valuations", () => ({ fund: "fund-i", date: d.valued, entityId: c.entityId, nav: "1000.00" }), ["fund", "date", "entityId", "nav"], {
      shape: (v) => ({ fund: v.fund, date: v.date, values: [{ entityId: v.entityId, nav: v.nav }] }),
    }),
    // A document addressed to an entity (issue 24 §2): a payload that matched an entity would re-address it.
    json("PATCH", `/api/documents/${fx.ids.lpDoc}`, () => ({ audience: "selected", entityId: c.entityId }), ["entityId"], {
      shape: (v) => ({ audience: v.audience, recipientEntityIds: [v.entityId] }),
      evidence: ok2xx,
    }),
    form("/admin/entities", "create-entity", { name: `Form entity ${unique()}`, kind: "trust", ownerEmail: c.ownerEmail }, ["name", "kind", "ownerEmail"], name),
    form(`/admin/entities/${c.formEntityId}`, "add-member", { email: c.newcomerEmail, role: "viewer" }, ["email", "role"]),
    // A made-up member: the payload in the name field must not remove anyone.
    form(`/admin/entities/${c.formEntityId}`, "remove-member", { userId: "x", name: "Someone" }, ["userId", "name"]),
    form(`/admin/entities/${c.formEntityId}`, "add-commitment", { fund: "fund-ii", amount: "1000.00", acceptedOn: d.accepted }, ["fund", "amount", "acceptedOn"]),
    form(`/admin/entities/${c.formEntityId}`, "raise-commitment", { commitmentId: c.formCommitmentId, amount: "9000000.00", effectiveOn: d.raised }, ["commitmentId", "amount", "effectiveOn"]),
    // The ledger pages' forms (their fields as posted: lines.{n}.*): a new call (every field), a new distribution and a
    // draft's change (the fields of their own, and the description, stored as typed); a payment from the entry's page.
    // The page forms of issue 24's pages post as the page does with JavaScript (`….data`: the action alone, no page
    // drawn around a refusal; a fifth of the time of a plain post, which the hostile-input section sends).
    ...ledgerSpecs(c, changeDraftId),
    ...statementsSpecs(c),
    form(`/admin/ledger/${c.publishedCallId}.data`, "record-payment", { entityId: c.entityId, amount: "1.00", receivedOn: d.paid }, ["entityId", "amount", "receivedOn"]),
    // The valuations import, confirmed (it writes when every row is good): a payload in the cells the database is asked
    // about (the entity's id and name) or that pick the fund must refuse its row, so all.
    {
      method: "POST",
      path: `/admin/funds/${CAPITAL_FUND}/valuations.data`,
      kind: "multipart",
      admin: true,
      base: () => ({ entity_id: c.entityId, entity: c.entityName, fund: CAPITAL_FUND, date: d.valued, nav: "1000.00" }),
      fields: ["entity_id", "entity", "fund"],
      build: (v) => {
        const csv = `entity_id,entity,fund,date,nav\r\n${[v.entity_id, v.entity, v.fund, v.date, v.nav].map((cell) => csvQuoted(cell ?? "")).join(",")}\r\n`;
        return multipart([{ name: "intent", value: "valuations" }, { name: "step", value: "confirm" }, { name: "csv", value: csv }, { name: "expected", value: "1" }]);
      },
      evidence: (a) => a.status < 400,
    },
    // The payment instructions (stored as JSON in one column): a free-text and a checked detail (no code: refused on it
    // after they are read, so no code attempt is spent), and codes with good details (each a wrong code: 7 of the admin's
    // 10 an hour). Payloads saved with a fresh code are stored as typed: paymentInstructionsStored.
    {
      method: "POST",
      path: `/admin/funds/${CAPITAL_FUND}/payment-instructions.data`,
      kind: "form",
      admin: true,
      base: () => ({ intent: "payment-instructions", ...PAYMENT_DETAILS, code: "" }),
      fields: ["beneficiary", "account"],
      evidence: (a) => a.status < 400,
    },
    {
      method: "POST",
      path: `/admin/funds/${CAPITAL_FUND}/payment-instructions.data`,
      kind: "form",
      admin: true,
      base: () => ({ intent: "payment-instructions", ...PAYMENT_DETAILS, code: "" }),
      fields: ["code"],
      evidence: (a) => a.status < 400,
    },
  ];
}

/**
 * Statements (issue 25): the P&L import's cells the database is asked about (the entity, by name; the fund; the
 * quarter), in a file that ties for both of the fixture's entities and is written when every row is good (so a
 * payload that got through would write it): through the JSON route (commit=1) and the page's confirm; publishing
 * and restating a quarter (each base publishable, or reopenable); the history import's upload (a valuation of the
 * entity, named) and its confirm (the fixture's staged pair: a payload in its name, hash or signature must not
 * confirm it). Each base is valid, so only the payload can refuse it; no text of theirs is stored as typed.
 */
function statementsSpecs(c: Fixture["capital"]): Spec[] {
  const Q = STATEMENT_QUARTERS;
  const pnl = (quarter: string) => (v: Values) =>
    [PNL_HEADER, [v.entity!, v.fund!, v.quarter!, ...PNL_AMOUNTS].map(csvQuoted).join(","), [c.formEntityId, CAPITAL_FUND, quarter, ...PNL_AMOUNTS].join(","), ""].join("\r\n");
  const pnlBase = (quarter: string) => () => ({ entity: c.entityName, fund: CAPITAL_FUND, quarter });
  const acted = (a: HttpAnswer) => a.status < 400;
  const page = (path: string, kind: Kind, base: () => Values, fields: string[], build?: Spec["build"]): Spec => ({ method: "POST", path, kind, admin: true, base, fields, evidence: acted, ...(build ? { build } : {}) });
  const statements = `/admin/funds/${CAPITAL_FUND}/statements.data`;
  const history = `/admin/funds/${CAPITAL_FUND}/import.data`;
  return [
    {
      method: "POST",
      path: `/api/statements/import?fund=${CAPITAL_FUND}&commit=1`,
      kind: "json",
      admin: true,
      base: pnlBase(Q.imported),
      fields: ["entity", "fund", "quarter"],
      build: (v) => csvBody(pnl(Q.imported)(v)),
      evidence: ok2xx,
    },
    page(statements, "multipart", pnlBase(Q.pageImport), ["entity", "fund", "quarter"], (v) =>
      multipart([
        { name: "intent", value: "statements-import" },
        { name: "step", value: "confirm" },
        { name: "csv", value: pnl(Q.pageImport)(v) },
        { name: "expected", value: "2" },
      ]),
    ),
    { method: "POST", path: "/api/statements/publish", kind: "json", admin: true, base: () => ({ fund: CAPITAL_FUND, quarter: Q.toPublish }), fields: ["fund", "quarter"], evidence: ok2xx },
    page(statements, "form", () => ({ intent: "publish-quarter", quarter: Q.pagePublish }), ["quarter"]),
    page(statements, "form", () => ({ intent: "restate-quarter", quarter: Q.published }), ["quarter"]),
    // The history upload: the entity's cell and the event; a payload that named an entity, or an event, would preview (200).
    page(history, "multipart", () => ({ entity: c.entityName, event: "valuation" }), ["entity", "event"], (v) =>
      multipart([
        { name: "intent", value: "history-import" },
        { name: "step", value: "preview" },
        { name: "history", value: Buffer.from(`${HISTORY_HEADER}\r\n${[v.entity!, v.event!, HISTORY_DATE, "", "", "", "", "1000.00"].map(csvQuoted).join(",")}\r\n`), filename: "history.csv", contentType: "text/csv" },
      ]),
    ),
    page(history, "form", () => ({ intent: "history-import", step: "confirm", ...c.historyConfirm }), ["upload", "hash", "signature"]),
  ];
}

/** An export (CSV/TSV): its cells are checked, it is not a page. */
const isExport = (path: string) => /\.(csv|tsv)(\?|$)/.test(path);

/** A CSV cell, quoted (RFC 4180) when it must be. */
const csvQuoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/** The ledger forms' specs: a new call (every field), a new distribution and a draft's change (theirs, and the description). */
function ledgerSpecs(c: Fixture["capital"], changeDraftId: string): Spec[] {
  const description = { field: "lines.0.description", table: "ledger_lines", column: "description" };
  const spec = (path: string, kind: "call" | "distribution", correctionOf: string, fields: string[]): Spec => ({
    method: "POST",
    path,
    kind: "form",
    admin: true,
    base: () => ({
      ...ledgerFormFields(kind, "preview", [{ type: kind === "call" ? "investment" : "return_of_capital", amount: "1000.00", description: `Form line ${unique()}` }]),
      ...(correctionOf ? { correctionOf } : {}),
    }),
    fields,
    stored: description,
  });
  return [
    spec(`/admin/funds/${CAPITAL_FUND}/calls/new.data`, "call", c.publishedCallId, ["noticeDate", "correctionOf", "lines.0.type", "lines.0.amount", "lines.0.description"]),
    spec(`/admin/funds/${CAPITAL_FUND}/distributions/new.data`, "distribution", c.publishedDistributionId, ["paymentDate", "lines.0.description"]),
    ...(changeDraftId ? [spec(`/admin/ledger/${changeDraftId}/change.data`, "call", "", ["lines.0.description"])] : []),
  ];
}

/** What the database must keep: every table, its rows, and the rows that matter as they were. */
function snapshot(fx: Fixture) {
  const db = openDatabase(fx.server);
  const tables = (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '\\_\\_%' escape '\\'").all() as Array<{ name: string }>).map((t) => t.name);
  const counts = new Map(tables.map((t) => [t, (db.prepare(`select count(*) as n from "${t}"`).get() as { n: number }).n]));
  const rows = new Map<string, string>();
  const keep = (sql: string) => (db.prepare(sql).all() as Array<Record<string, unknown>>).forEach((r) => rows.set(`${sql}|${String(r.id)}`, JSON.stringify(r)));
  keep("select id, email, name, company, status, is_admin, password_hash from lp_users");
  keep("select id, title, file_path from documents");
  keep("select id, title, file_path, fund_id from fund_documents");
  keep("select id, email, revoked_at, access_token_hash from fund_access_users");
  keep("select id, user_id, expires_at from sessions");
  keep("select id, name, kind from entities");
  keep("select entity_id || ':' || user_id as id, role from entity_members");
  keep("select id, amount_minor from commitments");
  keep("select id, status, number, date, due_date, correction_of from ledger_entries");
  keep("select entry_id || ':' || position as id, type, amount_minor, description from ledger_lines");
  keep("select entry_id || ':' || entity_id || ':' || position as id, amount_minor from ledger_allocations");
  keep("select id, amount_minor from call_payments");
  keep("select id, nav_minor from valuations");
  keep("select fund_id || ':' || quarter || ':' || entity_id as id, management_fees_minor, unrealized_gain_change_minor from pnl_rows");
  keep("select id, status, version from statement_quarters");
  keep("select id, quarter_id, entity_id, document_id from statements");
  db.close();
  return { counts, rows };
}

type Attempt = { spec: Spec; field: string; payload: string; values: Values; answer: HttpAnswer | null };

/** The stored value a valid payload must become (fields are trimmed; e-mails lower-cased; file names get their extension). */
const escaped = (x: string) => x.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

function expected(field: string, payload: string): string | null {
  if (field === "email") return payload.trim().toLowerCase();
  // A browser sends a file name's double quotes as %22 (so does multipart() here).
  if (field === "filename") return /[\\/\u0000-\u001f]|^[.\s]/.test(payload) ? null : `${payload.trim().replace(/"/g, "%22")}.pdf`;
  return payload.trim();
}
const COLUMN: Values = { filename: "file_name", deckUrl: "deck_url" };

function storedCheck(fx: Fixture, attempts: Attempt[]) {
  const db = openDatabase(fx.server);
  let checked = 0;
  const wrong: string[] = [];
  for (const { spec, field, payload, values, answer } of attempts) {
    if (spec.stored) {
      if (field !== spec.stored.field || !answer) continue;
      const want = payload.trim();
      const row = db.prepare(`select "${spec.stored.column}" as v from "${spec.stored.table}" where "${spec.stored.column}" = ?`).get(want) as { v: unknown } | undefined;
      // Stored: 201 from the JSON, a redirect (303) from a plain form post; a refusal is answered 4xx either way.
      if (!row && !(ok2xx(answer) || (spec.kind === "form" && answer.status === 303))) continue;
      checked += 1;
      if (row?.v !== want) wrong.push(`${spec.path} ${field}: stored ${JSON.stringify(row?.v)} for ${JSON.stringify(payload)}`);
      continue;
    }
    if (!spec.table || !answer || !["name", "company", "message", "email", "title", "description", "filename", "deckUrl", "phone"].includes(field)) continue;
    const want = expected(field, payload);
    if (want === null) continue;
    const row = (
      "email" in values
        ? db.prepare(`select * from ${spec.table} where email = ? order by rowid desc`).get(field === "email" ? want : values.email)
        : db.prepare(`select * from ${spec.table} where title = ? or description = ?`).get(values.title, values.description)
    ) as Record<string, unknown> | undefined;
    const mustExist = spec.kind !== "form" && ok2xx(answer);
    if (!row && !mustExist) continue;
    checked += 1;
    const got = row?.[COLUMN[field] ?? field];
    if (got !== (PLANT && checked === 1 ? `${want}!` : want)) wrong.push(`${spec.path} ${field}: stored ${JSON.stringify(got)} for ${JSON.stringify(payload)}`);
  }
  db.close();
  return { checked, wrong };
}

async function sqlPart(fx: Fixture, tally: Tally) {
  const victims: string[] = [];
  for (let i = 0; i < 3; i++) {
    const email = `victim-${i}-${unique()}@example.com`;
    await approvedInvestor(fx.server, fx.adminCookie, { email, password: PASSWORD, name: `Victim ${i}` });
    victims.push(email);
  }
  if (PLANT) writeDb(fx, "create table planted (x)");
  // The PDFs of the fixture's published quarter and entries are made in the background: their rows must not change under the comparison.
  await pdfJobsSettled(fx.server);
  const before = snapshot(fx);
  // A draft the change form redrafts again and again (made after the snapshot: its rows are the spec's to change).
  const draft = await send(fx.server, "POST", "/api/capital-calls", jsonBody(callBody()), fx.adminCookie);
  const changeDraftId = draft.status === 201 ? (JSON.parse(draft.text) as { id: string }).id : "";
  // First (before the code field's payloads spend the admin's code attempts): payloads saved as payment instructions.
  const instructions = await paymentInstructionsStored(fx);
  const attempts: Attempt[] = [];
  let fiveXx = 0;
  const evidence: string[] = [];
  const tried = async (label: string, answer: HttpAnswer | null, injected: boolean) => {
    if (!answer || answer.status >= 500) fiveXx += 1;
    if (injected) evidence.push(label);
  };
  for (const spec of sqlSpecs(fx, victims, changeDraftId)) {
    for (const field of spec.fields) {
      for (const payload of field === "email" ? [...SQL, ...SQL_EMAILS] : SQL) {
        const values = { ...spec.base(), [field]: payload };
        const body = spec.build ? spec.build(values) : spec.shape ? jsonBody(spec.shape(values)) : bodyOf(spec.kind, values, spec.fileField);
        const answer = await send(fx.server, spec.method, spec.path, body, spec.admin ? fx.adminCookie : "").catch(() => null);
        attempts.push({ spec, field, payload, values, answer });
        await tried(`${spec.method} ${spec.path} ${field}=${payload}`, answer, !!answer && !!spec.evidence?.(answer));
      }
    }
  }
  // Query parameters and path ids.
  const lists = ["lp-users", "rejected-lp-users", "fund-ii-requests", "newsletter"];
  let queries = 0;
  for (const payload of SQL) {
    const p = encodeURIComponent(payload);
    const adminPages = lists.flatMap((l) => [`/admin/email-lists?${l}.sort=${p}`, `/admin/email-lists?${l}.sort=email&${l}.dir=${p}`, `/admin/email-lists?${l}.page=${p}`]);
    adminPages.push(
      `/admin/investors?pending.page=${p}`,
      `/admin/investors?q=${p}`,
      `/admin/investors?status=${p}&q=${p}`,
      `/admin/investors?confirm=reject&user=${p}`,
      `/admin/fund-access?requests.page=${p}`,
      `/admin/documents?confirm=delete-document&document=${p}`,
      `/admin/fund-access?confirm=revoke-fund-access&request=${p}`,
      `/admin/dashboard?pending.page=${p}`,
    );
    for (const path of adminPages) await tried(`GET ${path}`, await adminGet(fx, path), false);
    const baseline = await adminGet(fx, "/admin/email-lists/lp-users.csv");
    for (const q of [`sort=${p}&dir=asc`, `sort=email&dir=${p}`]) {
      const answer = await adminGet(fx, `/admin/email-lists/lp-users.csv?${q}`);
      await tried(`GET lp-users.csv?${q}`, answer, !!answer && answer.text.split("\n").length !== (baseline?.text ?? "").split("\n").length);
    }
    const [investor, admin] = [fx.investorCookie, fx.adminCookie];
    const ids: Array<[string, string, string]> = [
      ...[`/api/documents/${p}/view`, `/api/documents/${p}/download`].map((path): [string, string, string] => ["GET", path, investor]),
      ...[`/api/fund-documents/view/${p}`, `/api/fund-documents/download/${p}`, `/admin/documents/${p}/access`].map((path): [string, string, string] => ["GET", path, admin]),
      ...[`/api/documents/${p}`, `/api/fund-documents/${p}`].map((path): [string, string, string] => ["DELETE", path, admin]),
      ["PATCH", `/api/auth/users/${p}/status`, admin],
      ["PUT", `/api/auth/users/${p}/reference-code`, admin],
      ["POST", `/admin/documents/bulk/${p}`, admin],
      // Capital accounts: an id that must match nothing (an investor's notice; the admin's reads, deletes and publishes).
      ["GET", `/lp/notices/${p}`, investor],
      ...[`/api/commitments/${p}`, `/api/capital-calls/${p}`, `/api/distributions/${p}`, `/admin/entities/${p}`, `/admin/funds/${p}`].map((path): [string, string, string] => ["GET", path, admin]),
      ...[`/api/capital-calls/${p}`, `/api/distributions/${p}`, `/api/entities/${fx.capital.entityId}/members/${p}`].map((path): [string, string, string] => ["DELETE", path, admin]),
      ...[`/api/capital-calls/${p}/publish`, `/api/distributions/${p}/publish`].map((path): [string, string, string] => ["POST", path, admin]),
      // The ledger pages and a fund's forms (an entry id, a slug), the investor's ledger filters (an entity id, a slug).
      ["GET", `/admin/ledger/${p}/change`, admin],
      ...[`/admin/ledger/${p}`, `/admin/funds/${p}/distributions/new`].map((path): [string, string, string] => ["POST", path, admin]),
      ["GET", `/lp/capital-account/ledger.csv?entity=${p}`, investor],
      // Statements (issue 25): a statement's id (an investor's page; the admin's job), a slug in the import routes.
      ["GET", `/lp/statements/${p}`, investor],
      ["GET", `/api/statements/jobs/${p}`, admin],
      ...[`/api/statements/import?fund=${p}`, `/admin/funds/${p}/statements`, `/admin/funds/${p}/import`].map((path): [string, string, string] => ["POST", path, admin]),
      // The mailed links: the token in the query is the only authority.
      ...[`/unsubscribe/documents?token=${p}`, `/unsubscribe/newsletter?token=${p}`, `/newsletter/confirm?token=${p}`, `/lp/register/confirm?token=${p}`].map(
        (path): [string, string, string] => ["POST", path, ""],
      ),
    ];
    const prefixed: Array<[string, ReturnType<typeof bodyOf>]> = [
      ["/admin/documents/bulk/", bodyOf("form", { intent: "publish", expected: "1" })],
      ["/unsubscribe/", bodyOf("form", { "List-Unsubscribe": "One-Click" })],
      ["/admin/ledger/", bodyOf("form", { intent: "publish" })],
      ["/api/statements/import", csvBody([PNL_HEADER, [fx.capital.entityName, CAPITAL_FUND, STATEMENT_QUARTERS.imported, ...PNL_AMOUNTS].join(",")].join("\n"))],
      ["/admin/funds/", bodyOf("form", ledgerFormFields("distribution", "preview"))],
      ["/newsletter/confirm", bodyOf("form", {})],
      ["/lp/register/confirm", bodyOf("form", { password: PASSWORD })],
    ];
    const bodyFor = (method: string, path: string) =>
      method === "PATCH"
        ? bodyOf("json", { status: "approved" })
        : method === "PUT"
          ? bodyOf("json", { referenceCode: "LRV-0001" })
          : (prefixed.find(([prefix]) => path.startsWith(prefix))?.[1] ?? null);
    for (const [method, path, cookie] of ids) {
      const answer = await send(fx.server, method, path, bodyFor(method, path), cookie).catch(() => null);
      // A page's form post answers a redirect when it acted (a slug or id that matched).
      const acted = !!answer && (ok2xx(answer) || (method === "POST" && /^\/admin\/(ledger|funds)\//.test(path) && answer.status < 400));
      await tried(`${method} ${path}`, answer, acted);
    }
    for (const fund of ["fund-i", "fund-ii"]) {
      const answer = await request(fx.server.url, "GET", `/${fund}/documents?token=${p}`, { headers: clientHeaders(fx.server) }).catch(() => null);
      const granted = (answer?.headers["set-cookie"] ?? []).some((c) => /^(__Host-)?lr_fund_i{1,2}=[^;]/.test(c) && !/max-age=0|expires=thu, 01 jan 1970/i.test(c));
      await tried(`GET /${fund}/documents?token=`, answer, granted || answer?.headers.location === `/${fund}/documents`);
    }
    queries += adminPages.length + 2 + ids.length + 2;
  }
  if (PLANT) {
    writeDb(fx, "update lp_users set status = 'approved' where id = ?", fx.ids.user);
    writeDb(fx, "drop table planted");
    const spec = sqlSpecs(fx, victims).find((x) => x.path === "/api/auth/login")!;
    const real = await send(fx.server, "POST", spec.path, bodyOf("json", { email: fx.investorEmail, password: PASSWORD }));
    await tried("planted: the real password", real, !!spec.evidence?.(real));
    await tried("planted: a 500", { ...real, status: 500 }, false);
  }
  const after = snapshot(fx);
  const shrunk = [...before.counts].filter(([t, n]) => (after.counts.get(t) ?? -1) < n).map(([t]) => t);
  const changed = [...before.rows].filter(([k, v]) => after.rows.get(k) !== v).map(([k]) => k.split("|")[0]!.split(" from ")[1] + " " + k.split("|")[1]);
  const stored = storedCheck(fx, attempts);
  tally.info("SQL: payloads × fields tried (bodies)", `${attempts.length} (${SQL.length} payloads, ${sqlSpecs(fx, victims, changeDraftId).length} endpoints)`);
  tally.info("SQL: payloads in query parameters and path ids", queries);
  tally.count("SQL: 5xx answers", fiveXx);
  tally.count("SQL: tables dropped or shrunk", shrunk.length, 0, shrunk.join(", "));
  tally.count("SQL: existing rows changed", changed.length, 0, changed.slice(0, 3).join(", "));
  tally.count("SQL: injected (sign-in, token or id accepted, export rows changed)", evidence.length, 0, evidence.slice(0, 3).join(" | "));
  for (const e of evidence.slice(0, 5)) tally.note(`SQL evidence: ${e}`);
  tally.check(`SQL: valid payloads stored verbatim (${stored.checked - stored.wrong.length}/${stored.checked})`, stored.checked > 0 && stored.wrong.length === 0, stored.wrong.slice(0, 3).join("; "));
  tally.check("SQL: payloads saved as payment instructions (with a fresh code) stored as typed", instructions.ok, instructions.detail);
}

/**
 * The payment instructions form with SQL payloads in its free-text fields and a fresh two-factor code of the
 * admin's: saved (303), and stored as typed in the fund's payment_instructions JSON.
 */
async function paymentInstructionsStored(fx: Fixture): Promise<{ ok: boolean; detail: string }> {
  const typed = { beneficiary: SQL[0]!, bankName: SQL[2]!, bankAddress: SQL[4]!, reference: SQL[8]! };
  const { code } = await nextTotpCode(fx.adminEmail);
  const answer = await send(fx.server, "POST", `/admin/funds/${CAPITAL_FUND}/payment-instructions`, bodyOf("form", { ...PAYMENT_DETAILS, ...typed, intent: "payment-instructions", code }), fx.adminCookie);
  const db = openDatabase(fx.server);
  const column = (db.prepare("select payment_instructions as v from funds where slug = ?").get(CAPITAL_FUND) as { v: string | null } | undefined)?.v ?? "{}";
  db.close();
  const saved = JSON.parse(column) as Record<string, unknown>;
  const wrong = Object.entries(typed).filter(([key, value]) => saved[key] !== (PLANT ? `${value}!` : value));
  return { ok: answer.status === 303 && wrong.length === 0, detail: `${answer.status}; stored otherwise: ${wrong.map(([key]) => `${key} = ${JSON.stringify(saved[key])}`).join(", ") || "none"}` };
}

/** A planted write (HARDENING_PLANT) straight into the server's database. */
function writeDb(fx: Fixture, sql: string, ...params: string[]) {
  const db = openDatabase(fx.server, false);
  db.prepare(sql).run(...params);
  db.close();
}

async function adminGet(fx: Fixture, path: string) {
  return request(fx.server.url, "GET", path, { headers: { cookie: fx.adminCookie } }).catch(() => null);
}

// ─── header injection ──────────────────────────────────────────────────────

const CRLF = [
  "Eve\r\nBcc: evil@attacker.example",
  "Eve\nX-Injected: lf",
  "Eve\rX-Injected: cr",
  "Eve\r\n\r\nX-Injected: split",
  "Eve%0d%0aX-Injected: encoded",
  "Eve\u2028X-Injected: u2028",
  "Eve\u0085X-Injected: nel",
  "Eve\r\n X-Injected: folded",
];
const CRLF_EMAILS = ["eve@example.com\r\nBcc: evil@attacker.example", "eve@example.com%0d%0aBcc:evil@attacker.example", "eve@example.com\nX-Injected: lf"];
const badHeader = (name: string) => name === "bcc" || name === "cc" || name.startsWith("x-injected");
async function headerPart(fx: Fixture, catcher: Awaited<ReturnType<typeof startMailCatcher>>, tally: Tally) {
  await drainOutbox(fx.server);
  const standard = ["from", "to", "subject", "date", "message-id", "mime-version", "content-type", "content-transfer-encoding"];
  const baseline = new Set([...standard, ...catcher.mails.flatMap((m) => mailHeaders(m.raw))]);
  let sent = 0;
  let fiveXx = 0;
  const post = async (path: string, body: { headers: Record<string, string>; body: string | Buffer }, cookie = "") => {
    sent += 1;
    const answer = await send(fx.server, "POST", path, body, cookie).catch(() => null);
    if (!answer || answer.status >= 500) fiveXx += 1;
    return answer;
  };
  const registered: string[] = [];
  for (const payload of CRLF) {
    const email = mail();
    if ((await post("/api/auth/register", bodyOf("json", { email, password: PASSWORD, name: payload, company: payload })))?.status === 201) {
      // Confirmed: the request (its hostile name in the subject) reaches the admins.
      await confirmRegistration(fx.server, email, PASSWORD, (path, body) => send(fx.server, "POST", path, body));
      registered.push(email);
    }
    await post("/api/pitch", bodyOf("json", { ...PITCH(), name: payload, company: payload, message: payload }));
    await post("/api/fund-access/register", bodyOf("json", { name: payload, email: mail(), fundId: "fund-ii", company: payload, accreditedConfirmation: "true" }));
    await post("/fund-ii/signup", bodyOf("form", { ...SIGNUP("fund-ii")(), name: payload }));
  }
  for (const email of registered) await post("/lp/forgot-password", bodyOf("form", { email }));
  // Entity names reach the subject and text of a published call's notice mails (issue 24): one call to all of them.
  const capital = await hostileEntities(fx, CRLF, post); // post counts their 5xx
  const pending = JSON.parse((await adminGet(fx, "/api/auth/pending-users"))?.text ?? "[]") as Array<{ id: string; email: string }>;
  for (const user of pending.filter((u) => registered.includes(u.email))) {
    const answer = await send(fx.server, "PATCH", `/api/auth/users/${user.id}/status`, bodyOf("json", { status: "approved" }), fx.adminCookie);
    if (answer.status >= 500) fiveXx += 1;
  }
  let acceptedEmails = 0;
  for (const email of PLANT ? [...CRLF_EMAILS, mail()] : CRLF_EMAILS) {
    for (const [path, body] of [
      ["/api/newsletter", bodyOf("json", { email })],
      ["/newsletter", bodyOf("form", { email })],
      ["/lp/forgot-password", bodyOf("form", { email })],
      ["/api/fund-access/register", bodyOf("json", { name: "Eve", email, fundId: "fund-ii", accreditedConfirmation: "true" })],
    ] as const) {
      const answer = await post(path, body);
      if (answer && answer.status < 300 && path.startsWith("/api")) acceptedEmails += 1;
    }
  }
  await drainOutbox(fx.server);
  const planted: CaughtMail[] = PLANT ? [{ ...catcher.mails[0]!, raw: `X-Injected: planted\r\n${catcher.mails[0]!.raw}` }] : [];
  const injected = [...catcher.mails, ...planted].filter(
    (m) => mailHeaders(m.raw).some((n) => badHeader(n) || !baseline.has(n)) || m.envelopeTo.some((to) => to.includes("attacker")),
  );

  // Values that reach HTTP response headers: file names (Content-Disposition), redirect targets (Location).
  const heads: string[] = [];
  for (const payload of CRLF) {
    const star = `form-data; name="file"; filename*=UTF-8''${encodeURIComponent(`${payload}.pdf`)}`;
    const built = multipart(uploadParts({ title: "Header test", category: "reports" }, "x.pdf"));
    const body = Buffer.from(built.body.toString("latin1").replace(/form-data; name="file"; filename="x\.pdf"/, star), "latin1");
    for (const [api, view] of [["/api/documents", "/api/documents/{id}/"], ["/api/fund-documents", "/api/fund-documents/{mode}/{id}"]] as const) {
      const answer = await send(fx.server, "POST", api, { headers: built.headers, body }, fx.adminCookie);
      if (answer.status >= 500) fiveXx += 1;
      if (answer.status !== 201) continue;
      const id = (JSON.parse(answer.text) as { id: string }).id;
      for (const mode of ["view", "download"]) {
        const path = api === "/api/documents" ? `${view.replace("{id}", id)}${mode}` : view.replace("{mode}", mode).replace("{id}", id);
        heads.push(await rawHead(fx.server, "GET", path, { cookie: api === "/api/documents" ? fx.investorCookie : fx.adminCookie }));
      }
    }
    const form = { ...clientHeaders(fx.server), "content-type": "application/x-www-form-urlencoded" };
    heads.push(await rawHead(fx.server, "POST", "/theme", form, new URLSearchParams({ theme: "dark", redirectTo: `/${payload}` }).toString()));
    heads.push(await rawHead(fx.server, "POST", "/newsletter", form, new URLSearchParams({ email: "x", redirectTo: `/${payload}`, formId: payload }).toString()));
    heads.push(await rawHead(fx.server, "GET", `/lp/login?redirectTo=${encodeURIComponent(payload)}`, {}));
  }
  if (PLANT) heads.push("HTTP/1.1 500 Internal Server Error\r\ncontent-disposition: inline\r\nX-Injected: planted");
  const splitHeads = heads.filter((h) => headerNames(h).some(badHeader) || headerNames(h).filter((n) => n === "content-disposition").length > 1);
  fiveXx += heads.filter((h) => /^HTTP\/1\.1 5/.test(h)).length;
  tally.info("headers: CR/LF payloads × fields sent", `${sent} requests (${CRLF.length} payloads; names, companies, pitch fields, Fund II names, e-mails)`);
  tally.info("headers: mails caught (sent by the app over SMTP)", catcher.mails.length);
  // An entity's name goes into notice mail subjects: one with CR/LF (or any control character) is refused at the edge (400).
  const notices = catcher.mails.filter((m) => /: Call \d+ for Eve/.test(m.subject.replace(/\s+/g, " "))).length;
  // Only a name without a line-breaking character is stored ("Eve%0d%0a…" is text); each such one's notice is caught.
  const storable = CRLF.filter((n) => !/[\p{Cc}\u2028\u2029]/u.test(n)).length;
  tally.check(
    `headers: CR/LF entity names refused, the others' notices caught (${capital.stored} of ${CRLF.length} stored, ${notices} notices)`,
    capital.stored === storable && notices >= capital.stored,
    `${capital.stored} entities stored (expected ${storable}), ${notices} notice mails`,
  );
  tally.count("headers: mails with an injected header line or recipient", injected.length, 0, injected.map((m) => m.subject).slice(0, 2).join(" | "));
  tally.count("headers: CR/LF e-mail addresses accepted", acceptedEmails);
  tally.info("headers: response heads read raw (downloads, redirects)", heads.length);
  tally.count("headers: responses with an extra header line", splitHeads.length, 0, splitHeads[0]?.slice(0, 200));
  tally.count("headers: 5xx answers", fiveXx);
}

/**
 * Entities named `names` (the fixture investor their owner), each with a Fund II
 * commitment, and a Fund II call published to all of them (its notice mails go
 * to the investor, one per entity). Their ids, the call's id, and the 5xx seen.
 */
async function hostileEntities(
  fx: Fixture,
  names: string[],
  post: (path: string, body: { headers: Record<string, string>; body: string | Buffer }, cookie?: string) => Promise<HttpAnswer | null>,
) {
  let fiveXx = 0;
  let stored = 0;
  const count = (answer: HttpAnswer | null) => {
    if (!answer || answer.status >= 500) fiveXx += 1;
    return answer;
  };
  const entityIds: string[] = [];
  for (const name of names) {
    const entity = count(await post("/api/entities", jsonBody({ name, kind: "company", members: [{ userId: fx.investorId, role: "owner" }] }), fx.adminCookie));
    if (entity?.status !== 201) continue;
    stored += 1;
    const id = (JSON.parse(entity.text) as { id: string }).id;
    entityIds.push(id);
    count(await post("/api/commitments", jsonBody({ entityId: id, fund: "fund-ii", amount: "100000.00", acceptedOn: CAPITAL_DATES.accepted }), fx.adminCookie));
  }
  const call = count(await post("/api/capital-calls", jsonBody({ ...callBody(), fund: "fund-ii" }), fx.adminCookie));
  const callId = call?.status === 201 ? (JSON.parse(call.text) as { id: string }).id : "";
  if (callId) count(await post(`/api/capital-calls/${callId}/publish`, { headers: {}, body: "" }, fx.adminCookie));
  return { entityIds, callId, stored, fiveXx };
}

// ─── stranger text in mail bodies ──────────────────────────────────────────

/**
 * Issue 21, finding L2: text a stranger types (names, companies, a pitch's
 * message and deck link) must not reach a mail the firm sends to an address
 * nobody proved as a link or a line of its own — else the firm's own, signed
 * mail is the phishing mail. Every mail caught for one of these addresses may
 * hold the firm's links (APP_URL) and address only, and no line the payload began.
 */
const STRANGER_TEXT = [
  "Support Team\nYour account is locked: https://evil.example/x",
  "Ada\r\nClick www.evil.example now",
  "Mallory evil.example/login",
  "Eve <mailto:eve@evil.example>",
  "Bob\u2028Visit evil\uFF0Eexample/reset",
  "Trent ev\u200Bil.example/x",
  "Peggy 203.0.113.9/login",
];
/** Links and link-like host names (the test's reading of a mail body; tests/integration/mail-stranger-text.test.ts). */
const LINK_LIKE = /(?:[a-z][a-z0-9+.-]*:\/\/\S+|www\.\S+|\b[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}\S*|\b\d{1,3}(?:\.\d{1,3}){3}\S*)/giu;

async function mailBodyPart(fx: Fixture, catcher: Awaited<ReturnType<typeof startMailCatcher>>, tally: Tally) {
  await drainOutbox(fx.server);
  const appUrl = fx.server.env.APP_URL!;
  const strangers = new Set<string>();
  const to = () => {
    const address = mail();
    strangers.add(address);
    return address;
  };
  let fiveXx = 0;
  const post = async (path: string, body: { headers: Record<string, string>; body: string | Buffer }) => {
    const answer = await send(fx.server, "POST", path, body).catch(() => null);
    if (!answer || answer.status >= 500) fiveXx += 1;
    return answer;
  };
  for (const payload of STRANGER_TEXT) {
    const fundII = to();
    await post("/api/fund-access/register", bodyOf("json", { name: payload, email: fundII, fundId: "fund-ii", company: payload, accreditedConfirmation: "true" }));
    // Asked again with the same address and another hostile name (the holder's notice, decision 012).
    await post("/api/fund-access/register", bodyOf("json", { name: `${payload} again`, email: fundII, fundId: "fund-ii", accreditedConfirmation: "true" }));
    await post("/fund-ii/signup", bodyOf("form", { ...SIGNUP("fund-ii")(), email: to(), name: payload }));
    await post("/api/pitch", bodyOf("json", { name: payload, email: to(), company: payload, stage: "Seed", deckUrl: "https://evil.example/deck.pdf", message: `${payload}\nLog in at https://evil.example/m` }));
    const account = to();
    const registration = bodyOf("json", { email: account, password: PASSWORD, name: payload, company: payload });
    await post("/api/auth/register", registration);
    await post("/api/auth/register", registration); // "already registered", to the address
    await post("/lp/forgot-password", bodyOf("form", { email: account }));
  }
  await drainOutbox(fx.server);
  const caught = catcher.mails.filter((m) => m.envelopeTo.some((address) => strangers.has(address)));
  const planted: CaughtMail[] = PLANT && caught[0] ? [{ ...caught[0], text: `${caught[0].text}\nVisit https://evil.example/planted` }] : [];
  const firms = (link: string) => link.startsWith(`${appUrl}/`) || /^(hello@)?lumenridge\.example[.,)]?$/.test(link);
  const payloadLines = STRANGER_TEXT.flatMap((p) => p.split(/\r\n|\n|\u2028/).slice(1)).map((line) => line.slice(0, 12));
  const leaking = [...caught, ...planted].filter(
    (m) =>
      /evil|203\.0\.113\.9/i.test(m.text) ||
      (m.text.match(LINK_LIKE) ?? []).some((link) => !firms(link)) ||
      m.text.split(/\r?\n/).some((line) => payloadLines.some((start) => line.startsWith(start))),
  );
  tally.info("mail bodies: hostile names × forms sent (Fund II twice, Fund II form, pitch, registration twice, reset)", STRANGER_TEXT.length * 7);
  tally.info("mail bodies: mails caught for those unproved addresses", caught.length);
  tally.check("mail bodies: every such form mailed its address", caught.length >= STRANGER_TEXT.length * 5, `${caught.length} mails`);
  tally.count(
    "mail bodies: mails to an unproved address with a stranger's link or line",
    leaking.length,
    0,
    leaking
      .slice(0, 2)
      .map((m) => `${m.subject}: ${m.text.split(/\r?\n/)[0]}`)
      .join(" | "),
  );
  tally.count("mail bodies: 5xx answers", fiveXx);
}

// ─── stored XSS ────────────────────────────────────────────────────────────

const XSS = [
  "<script>window.__xss++</script>",
  '<img src=x onerror="window.__xss++">',
  '"><svg onload=window.__xss++>',
  "'><img src=x onerror=window.__xss++>",
  "</title></textarea><script>window.__xss++</script>",
  "</script><script>window.__xss++</script>",
  '<iframe srcdoc="<script>parent.__xss++</script>"></iframe>',
  '" autofocus onfocus="window.__xss++" x="',
  "javascript:window.__xss++",
  "<details open ontoggle=window.__xss++>",
  '<a href="javascript:window.__xss++">x</a>',
  "<svg><script>alert(1)</script></svg>",
  "\u2028\u2029<!--<script>window.__xss++</script>",
];
const FORMULAS = ["=cmd|' /C calc'!A0", "+SUM(1,1)", "-2+3", "@SUM(1,1)", '=HYPERLINK("http://evil.example","x")'];
const FORMULA_EMAILS = ["-2+3@example.com", "+sum@example.com"];

async function storeXss(fx: Fixture) {
  let stored = 0;
  let tried = 0;
  const store = async (fields: number, answer: Promise<HttpAnswer>) => {
    tried += fields;
    const a = await answer.catch(() => null);
    if (a && a.status < 400) stored += fields;
    return a;
  };
  const users: string[] = [];
  for (const [i, payload] of [...XSS, ...FORMULAS].entries()) {
    const email = `xss-${i}-${unique()}@example.com`;
    if ((await store(2, send(fx.server, "POST", "/api/auth/register", bodyOf("json", { email, password: PASSWORD, name: payload, company: payload }))))?.status === 201) {
      await confirmRegistration(fx.server, email, PASSWORD, (path, body) => send(fx.server, "POST", path, body));
      users.push(email);
    }
    await store(3, send(fx.server, "POST", "/api/pitch", bodyOf("json", { ...PITCH(), name: payload, company: payload, message: payload })));
    await store(2, send(fx.server, "POST", "/api/fund-access/register", bodyOf("json", { ...SIGNUP("fund-ii")(), name: payload, company: payload })));
    await store(2, send(fx.server, "POST", "/api/fund-access/register", bodyOf("json", { ...SIGNUP("fund-i")(), name: payload, company: payload })));
    const doc = { title: payload, description: payload, category: "reports", filename: payload };
    await store(3, send(fx.server, "POST", "/api/documents", bodyOf("multipart", doc), fx.adminCookie));
    await store(3, send(fx.server, "POST", "/api/fund-documents", bodyOf("multipart", { ...doc, category: "fund_documents", fundId: i % 2 ? "fund-i" : "fund-ii" }), fx.adminCookie));
  }
  for (const email of [...XSS.map((x) => `${x}@example.com`), ...FORMULA_EMAILS]) await store(1, send(fx.server, "POST", "/api/newsletter", bodyOf("json", { email })));
  // Approve a third, reject a third, leave the rest pending; the first approved one signs in and opens a document with hostile headers.
  const pending = JSON.parse((await adminGet(fx, "/api/auth/pending-users"))?.text ?? "[]") as Array<{ id: string; email: string }>;
  const ours = pending.filter((u) => users.includes(u.email));
  for (const [i, user] of ours.entries()) if (i % 3) await send(fx.server, "PATCH", `/api/auth/users/${user.id}/status`, bodyOf("json", { status: i % 3 === 1 ? "approved" : "rejected" }), fx.adminCookie);
  const investorCookie = await signIn(fx.server, ours[1]!.email, PASSWORD);
  const docs = JSON.parse((await request(fx.server.url, "GET", "/api/documents", { headers: { cookie: investorCookie } })).text) as Array<{ id: string }>;
  for (const payload of XSS.filter((x) => !x.includes(","))) {
    const headers = { cookie: investorCookie, "user-agent": payload, "x-forwarded-for": payload.replace(/[\u2028\u2029]/g, "") };
    await store(2, request(fx.server.url, "GET", `/api/documents/${docs[0]!.id}/view`, { headers }));
  }
  // Entity names: the admin's entity and fund pages, the owner's capital account and the notice of a call to them all (issue 24).
  const names = [...XSS, ...FORMULAS];
  const capital = await hostileEntities(fx, names, (path, body, cookie = "") => send(fx.server, "POST", path, body, cookie).catch(() => null));
  tried += names.length;
  stored += capital.stored;
  // A Fund II draft with a line per payload (its description), split over those entities: its page and its change form.
  const lines = names.slice(0, 20).map((description) => ({ type: "investment", amount: "100.00", description }));
  const draft = await store(lines.length, send(fx.server, "POST", "/api/capital-calls", jsonBody({ ...callBody(), fund: "fund-ii", lines }), fx.adminCookie));
  const draftId = draft?.status === 201 ? (JSON.parse(draft.text) as { id: string }).id : "none";
  // The valuations import's preview of a file naming those entities (resolved: their names) and payloads as typed (not resolved).
  const rows = [...names.map((name) => [name, "fund-ii", CAPITAL_DATES.valued, "1000.00"]), ...XSS.map((x) => [x, x, x, x])];
  const csv = ["entity,fund,date,nav", ...rows.map((r) => r.map(csvQuoted).join(","))].join("\r\n");
  const preview = multipart([
    { name: "intent", value: "valuations" },
    { name: "step", value: "preview" },
    { name: "file", value: Buffer.from(csv), filename: `${XSS[1]}.csv`, contentType: "text/csv" },
  ]);
  const statements = hostileStatements(fx, capital.entityIds);
  return { stored, tried, investorCookie, users: ours, docId: docs[0]!.id, capital, draftId, preview, statements };
}

/**
 * Statements of the hostile entities (issue 25): a P&L preview of a file naming them (resolved: their names) and
 * payloads as typed (not resolved), in a file named with one; a history preview of a call to each with a payload as
 * its reference and a valuation of each that replaces one (listed by name), in a file named with one (the answers to
 * the uploads' posts); and a published statement of each,
 * its name frozen in its figures (put in the database as publishing writes it: publishing through the API would
 * make their PDFs in the background, beside Chromium), for the owner's list and the first one's page.
 */
function hostileStatements(fx: Fixture, entityIds: string[]) {
  const db = openDatabase(fx.server, false);
  const hostile = (db.prepare("select id, name from entities order by rowid").all() as Array<{ id: string; name: string }>).filter((e) => entityIds.includes(e.id));
  // 2015-Q1: a quarter nothing else in this section is dated in (a published quarter refuses such dates).
  const quarterId = randomUUID();
  const fundId = (db.prepare("select id from funds where slug = 'fund-ii'").get() as { id: string }).id;
  db.prepare("insert into statement_quarters (id, fund_id, quarter, version, status, published_at) values (?, ?, '2015-Q1', 1, 'published', ?)").run(quarterId, fundId, Date.now());
  const insert = db.prepare("insert into statements (id, quarter_id, entity_id, figures) values (?, ?, ?, ?)");
  // A valuation of each at 2024-06-30: the history file's valuations replace them, and the preview lists each by name.
  const valuation = db.prepare("insert or ignore into valuations (id, fund_id, entity_id, date, nav_minor) values (?, ?, ?, '2024-06-30', 100000)");
  const ids = hostile.map((e) => {
    const id = randomUUID();
    insert.run(id, quarterId, e.id, JSON.stringify(statementFixture({ entity: { id: e.id, name: e.name }, quarter: "2015-Q1", periodEnd: "2015-03-31" })));
    valuation.run(randomUUID(), fundId, e.id);
    return id;
  });
  db.close();
  const quarter = "2024-Q3";
  const pnlRows = [...hostile.map((e) => [e.name, "fund-ii", quarter, ...PNL_AMOUNTS]), ...XSS.map((x) => [x, x, x, x, x, x, x, x, x])];
  const pnlPreview = multipart([
    { name: "intent", value: "statements-import" },
    { name: "step", value: "preview" },
    { name: "file", value: Buffer.from([PNL_HEADER, ...pnlRows.map((r) => r.map(csvQuoted).join(","))].join("\r\n")), filename: `${XSS[1]}.csv`, contentType: "text/csv" },
  ]);
  const calls = hostile.flatMap((e, i) => [
    [e.name, "call", "2024-05-01", "2024-05-15", XSS[i % XSS.length]!, "investment", "", "100.00"],
    [e.name, "valuation", "2024-06-30", "", "", "", "", "2000.00"],
  ]);
  const historyPreview = multipart([
    { name: "intent", value: "history-import" },
    { name: "step", value: "preview" },
    // The file's name is the preview's title (a payload without '/' or '"': the page keeps the last path segment; a browser sends '"' as %22).
    { name: "history", value: Buffer.from([HISTORY_HEADER, ...calls.map((r) => r.map(csvQuoted).join(","))].join("\r\n")), filename: `${XSS[3]}.csv`, contentType: "text/csv" },
  ]);
  return { statementId: ids[0] ?? "none", pnlPreview, historyPreview };
}

async function xssPart(fx: Fixture, tally: Tally) {
  const s = await storeXss(fx);
  const lists = ["lp-users", "rejected-lp-users", "fund-ii-requests", "newsletter"];
  const fundDocs = JSON.parse((await adminGet(fx, "/api/fund-documents/fund-ii"))?.text ?? "[]") as Array<{ id: string }>;
  const requests = JSON.parse((await adminGet(fx, "/api/fund-access/requests"))?.text ?? "[]") as Array<{ id: string }>;
  const pages: Array<Omit<Visit, "html">> = [
    ...[
      "/admin/dashboard",
      "/admin/investors",
      "/admin/email-lists",
      `/admin/investors?confirm=reject&user=${s.users[0]!.id}`,
      `/admin/investors?confirm=revoke&user=${s.users[1]!.id}`,
      `/admin/documents?confirm=delete-document&document=${s.docId}`,
      `/admin/fund-access?confirm=revoke-fund-access&request=${requests[0]!.id}`,
      `/admin/fund-access?confirm=delete-fund-document&document=${fundDocs[0]!.id}`,
    ].map((path) => ({ path, cookie: fx.adminCookie })),
    { path: `/admin/documents/${s.docId}/access`, cookie: fx.adminCookie },
    ...["/admin/entities", `/admin/entities/${s.capital.entityIds[0] ?? "none"}`, "/admin/funds/fund-ii"].map((path) => ({ path, cookie: fx.adminCookie })),
    // A draft's page (its lines' descriptions, its entities' names) and its change form (the descriptions as field values: raw HTML only).
    { path: `/admin/ledger/${s.draftId}`, cookie: fx.adminCookie, expectText: XSS[0]!, bypassOnly: true },
    { path: `/admin/ledger/${s.draftId}/change`, cookie: fx.adminCookie, rawOnly: true },
    // The valuations preview: the answer to the upload's post (what a browser gets, with or without JavaScript).
    { path: "/admin/funds/fund-ii/valuations", cookie: fx.adminCookie, post: s.preview, expectText: XSS[0]!, bypassOnly: true },
    // Statements (issue 25): the P&L and history previews (the answers to their uploads), the owner's list and a statement.
    { path: "/admin/funds/fund-ii/statements", cookie: fx.adminCookie, post: s.statements.pnlPreview, expectText: XSS[0]!, bypassOnly: true },
    { path: "/admin/funds/fund-ii/import", cookie: fx.adminCookie, post: s.statements.historyPreview, expectText: XSS[0]!, bypassOnly: true },
    { path: "/lp/statements", cookie: fx.investorCookie, rawOnly: true },
    { path: `/lp/statements/${s.statements.statementId}`, cookie: fx.investorCookie, expectText: XSS[0]!, bypassOnly: true },
    ...["/lp/capital-account", `/lp/notices/${s.capital.callId || "none"}`, "/lp/capital-account/ledger.csv"].map((path) => ({ path, cookie: fx.investorCookie })),
    // The full ledger: the same table as the capital account's latest transactions (raw HTML only).
    { path: "/lp/capital-account/ledger", cookie: fx.investorCookie, rawOnly: true },
    { path: "/lp/dashboard", cookie: s.investorCookie },
    { path: "/fund-ii/documents", cookie: fx.adminCookie },
    { path: "/fund-i/documents", cookie: fx.adminCookie },
    ...lists.flatMap((l) => [`/admin/email-lists/${l}.csv`, `/admin/email-lists/${l}.tsv`]).map((path) => ({ path, cookie: fx.adminCookie })),
    // The hostile sign-ups are pending (double opt-in): the admin sees them under that status.
    ...["/admin/email-lists?newsletter.status=pending", "/admin/email-lists/newsletter.csv?status=pending", "/admin/email-lists/newsletter.tsv?status=pending"].map((path) => ({
      path,
      cookie: fx.adminCookie,
    })),
  ];
  let badExports = 0;
  const cells: string[] = [];
  const visits: Visit[] = [];
  const literal: string[] = [];
  const shown: string[] = [];
  let ledgerCells: string[] = [];
  for (const { path, cookie, post, rawOnly, bypassOnly, expectText } of pages) {
    const answer = post
      ? await request(fx.server.url, "POST", path, { headers: { ...clientHeaders(fx.server, cookie), ...post.headers }, body: post.body })
      : await request(fx.server.url, "GET", path, { headers: { cookie } });
    if (path === "/lp/capital-account/ledger.csv") ledgerCells = parseCsv(answer.text.replace(/^\uFEFF/, ""));
    if (isExport(path) || (PLANT && path === "/fund-i/documents")) {
      if (!/^text\/(csv|tab-separated-values)/.test(String(answer.headers["content-type"])) || answer.headers["x-content-type-options"] !== "nosniff") badExports += 1;
      cells.push(...(path.endsWith(".csv") ? parseCsv(answer.text.replace(/^\uFEFF/, "")) : answer.text.split("\n").flatMap((l) => l.split("\t"))));
    }
    if (isExport(path)) {
      visits.push({ path, cookie });
      continue;
    }
    const html = PLANT && path === "/lp/dashboard" ? answer.text.replace("</body>", `${XSS[1]}</body>`) : answer.text;
    // The payload as typed, outside scripts (inside one it is data, and a break-out shows as a new script element).
    const outsideScripts = html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "");
    for (const x of XSS) if (x.includes("<") && outsideScripts.includes(x)) literal.push(`as typed in ${path}: ${x}`);
    if (XSS.some((x) => html.includes(escaped(x)))) shown.push(path);
    visits.push({ path, cookie, html, ...(post ? { post } : {}), ...(rawOnly ? { rawOnly } : {}), ...(bypassOnly ? { bypassOnly } : {}), ...(expectText ? { expectText } : {}) });
  }
  const seen = await browsePages(fx.server, visits, PLANT ? { path: "/lp/dashboard", html: XSS[1]! } : undefined);
  if (PLANT) cells.push("=1+1");
  const loose = cells.filter((c) => /^[=+\-@\t\r]/.test(c));
  const formulas = PLANT ? [...FORMULAS, "=PLANTED(1)"] : FORMULAS;
  const neutralized = formulas.filter((f) => cells.includes(`'${f}`)).length;
  tally.info("XSS: payloads × stored fields tried (accepted)", `${s.tried} (${s.stored})`);
  const exports = pages.filter((p) => isExport(p.path)).length;
  const raw = pages.filter((p) => p.rawOnly).length;
  const once = pages.filter((p) => p.bypassOnly).length;
  tally.info(
    "XSS: pages loaded in Chromium (CSP on / bypassed)",
    `${seen.loads} (${pages.length - exports} pages + ${exports} exports ×2; ${once} of them with CSP bypassed only, ${raw} as raw HTML only)`,
  );
  const htmlPages = pages.filter((p) => !isExport(p.path)).map((p) => p.path);
  const blank = htmlPages.filter((p) => !shown.includes(p) || (PLANT && p === "/fund-i/documents"));
  tally.check(`XSS: pages showing stored payloads, escaped (${htmlPages.length - blank.length}/${htmlPages.length})`, blank.length === 0, `none shown on ${blank.join(", ")}`);
  tally.count("XSS: executed (window.__xss + dialogs)", seen.executed);
  tally.count("XSS: pages that did not show their stored payloads in Chromium (the ledger draft, the imports' previews, a statement)", seen.blank.length, 0, seen.blank.join(", "));
  tally.info("XSS: pages not hydrated within 2 s (info)", seen.unhydrated.join(", ") || "none");
  const findings = [...literal, ...seen.findings];
  tally.count("XSS: injected (payload unescaped in raw HTML or live DOM)", findings.length, 0, findings.slice(0, 2).join(" | "));
  tally.count("CSV/TSV: exports not served as text with nosniff", badExports);
  tally.count("CSV/TSV: cells a spreadsheet would run as a formula", loose.length, 0, loose.slice(0, 3).join(" | "));
  tally.check(`CSV/TSV: formula payloads found neutralized (${neutralized}/${formulas.length})`, neutralized === formulas.length, `only ${neutralized}`);
  // The investor's ledger export (issue 24 §8): the hostile entities' names are its Entity cells.
  if (PLANT) ledgerCells.push("@PLANTED(1)");
  const ledgerLoose = ledgerCells.filter((c) => /^[=+\-@\t\r]/.test(c));
  const ledgerNeutralized = FORMULAS.filter((f) => ledgerCells.includes(`'${f}`)).length;
  tally.check(
    `CSV: the capital ledger export's formula entity names neutralized (${ledgerNeutralized}/${FORMULAS.length}), none loose`,
    ledgerNeutralized === FORMULAS.length && ledgerLoose.length === 0,
    `${ledgerNeutralized} neutralized; loose: ${ledgerLoose.slice(0, 3).join(" | ") || "none"}`,
  );
  for (const note of findings.slice(0, 4)) tally.note(note);
}

export const section: Section = {
  name: "injection",
  run: async (ctx: Context) => {
    const tally = new Tally();
    const t0 = Date.now();
    const catcher = await startMailCatcher(ctx);
    // A failed setup must not leave the mail catcher listening (it would keep the run from exiting).
    const fx = await setUpFixture(ctx, "injection", { SMTP_URL: catcher.smtpUrl }).catch(async (error: unknown) => {
      await catcher.stop();
      throw error;
    });
    try {
      await sqlPart(fx, tally);
      ctx.progress(`SQL done (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      await headerPart(fx, catcher, tally);
      ctx.progress(`headers done (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      await mailBodyPart(fx, catcher, tally);
      ctx.progress(`mail bodies done (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      await xssPart(fx, tally);
      tally.count("server process exits", fx.server.unexpectedExits());
      const health = await request(fx.server.url, "GET", PLANT ? "/healthz-planted" : "/healthz").catch(() => null);
      tally.check("/healthz answers 200 at the end", health?.status === 200, `answered ${health?.status ?? "nothing"}`);
      if (PLANT) tally.note("HARDENING_PLANT=1: one fault planted under each check");
    } finally {
      await fx.server.stop();
      await catcher.stop();
    }
    tally.info("section time (s)", ((Date.now() - t0) / 1000).toFixed(1));
    return tally.result();
  },
};

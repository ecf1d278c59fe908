/**
 * Shared by the csrf, sessions, brute-force and headers sections: requests
 * from a chosen local address, multipart bodies, accounts and documents made
 * over HTTP, a request body for every route in MUTATIONS, a database
 * fingerprint, and the DESIGN.md §4 security-header rules.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { samplePdf } from "../tests/helpers/sample-files";
import { ACCOUNT_MUTATIONS, LEDGER_FORM_INTENTS, MUTATIONS, mutationKey, type BodyKind, type Mutation, type Role } from "./endpoints";
import {
  confirmRegistration,
  cookiesFrom,
  createAdmin,
  formBody,
  jsonBody,
  loginWithCode,
  multipart,
  openDatabase,
  PASSWORD,
  request,
  unique,
  type AppServer,
  type HttpAnswer,
  type Part,
  type RequestOptions,
} from "./harness";

export { PASSWORD, unique };

export const EVIL_ORIGIN = "https://evil.example";
export const CROSS_SITE_MESSAGE = "Cross-site requests are not allowed.";


// ─── HTTP ───────────────────────────────────────────────────────────────────

export type SendOptions = RequestOptions;

/** harness.request: exactly the given headers, no redirects followed; a local address and chunked bodies too. */
export const send = request;

export type Body = { headers: Record<string, string>; body?: string | Buffer };

/** A multipart/form-data body with text fields and at most one file (field "file" unless told). */
export function multipartBody(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }, fileField = "file"): Body {
  const parts: Part[] = Object.entries(fields).map(([name, value]) => ({ name, value }));
  if (file) parts.push({ name: fileField, value: file.bytes, filename: file.name, contentType: file.type });
  return multipart(parts);
}

/**
 * A signed id as app/modules/mail/signed-id.server.ts makes it (the mailed
 * unsubscribe links' tokens), under the server's SESSION_SECRET.
 */
export function signedIdToken(secret: string, purpose: "document-mail-unsubscribe" | "newsletter-unsubscribe", id: string): string {
  const key = createHmac("sha256", secret).update(`key:${purpose}`).digest();
  const mac = createHmac("sha256", key).update(`${purpose}:v1:${id}`).digest("base64url");
  return `${Buffer.from(id, "utf8").toString("base64url")}.${mac}`;
}

/** A made-up bulk upload batch id (32 hex digits: the shape of a real one, no batch behind it). */
export const madeUpBatchId = () => randomBytes(16).toString("hex");

export function headerValue(answer: HttpAnswer, name: string): string {
  const value = answer.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

export function setCookies(answer: HttpAnswer): string[] {
  return answer.headers["set-cookie"] ?? [];
}

/** The session cookie's `name=value` from an answer, or "" (a cleared cookie counts as none). */
export function sessionPair(answer: HttpAnswer): string {
  return cookiesFrom(answer)
    .split("; ")
    .filter((pair) => /^(__Host-)?lr_session=/.test(pair))
    .join("; ");
}

export function isCrossSiteRefusal(answer: HttpAnswer): boolean {
  return answer.status === 403 && answer.text.includes(CROSS_SITE_MESSAGE);
}

/** React Router's own check on document and data POSTs (Origin against the request URL): a plain 400. */
export function isActionOriginRefusal(answer: HttpAnswer): boolean {
  return answer.status === 400 && answer.text === "Bad Request";
}

/** Retry-After as whole seconds, or NaN. */
export function retryAfterSeconds(answer: HttpAnswer): number {
  const raw = headerValue(answer, "retry-after");
  return /^\d+$/.test(raw) ? Number(raw) : NaN;
}

// ─── a portal to work on ────────────────────────────────────────────────────

/**
 * A server with an admin, reached with fixed extra headers on every setup
 * request (e.g. an X-Forwarded-For of its own, or Host/X-Forwarded-Proto for
 * an https APP_URL) and optionally from a local address of its own.
 */
export class Portal {
  adminEmail = `admin-${unique()}@lumenridge.example`;
  adminCookie = "";
  constructor(
    readonly server: AppServer,
    readonly setupHeaders: Record<string, string> = {},
    readonly localAddress?: string,
  ) {}

  /** The admin (real CLI, two-factor on) and their session. */
  async init(): Promise<this> {
    createAdmin(this.server, this.adminEmail, PASSWORD);
    this.adminCookie = await this.signIn(this.adminEmail);
    return this;
  }

  call(method: string, path: string, body: Body = { headers: {} }, cookie = "", extra: Record<string, string> = {}) {
    const headers = { ...this.setupHeaders, ...body.headers, ...extra, ...(cookie ? { cookie } : {}) };
    return send(this.server.url, method, path, { headers, body: body.body, localAddress: this.localAddress });
  }

  /** JSON sign-in (with a two-factor code when the account needs one: admins always); returns the session cookie. */
  async signIn(email: string, password = PASSWORD, cookie = ""): Promise<string> {
    const answer = await loginWithCode((fields) => this.call("POST", "/api/auth/login", jsonBody(fields), cookie), email, password);
    if (answer.status !== 200) throw new Error(`sign-in of ${email}: ${answer.status} ${answer.text.slice(0, 200)}`);
    return sessionPair(answer);
  }

  /** Register an investor and confirm the address (pending); returns their id. */
  async register(email = `lp-${unique()}@example.com`): Promise<{ id: string; email: string }> {
    const answer = await this.call("POST", "/api/auth/register", jsonBody({ email, password: PASSWORD, name: "Hardening Investor" }));
    if (answer.status !== 201) throw new Error(`register ${email}: ${answer.status} ${answer.text.slice(0, 200)}`);
    await confirmRegistration(this.server, email, PASSWORD, (path, body) => this.call("POST", path, body));
    const pending = await this.call("GET", "/api/auth/pending-users", undefined, this.adminCookie);
    if (pending.status !== 200) throw new Error(`pending users: ${pending.status} ${pending.text.slice(0, 200)}`);
    const row = (JSON.parse(pending.text) as Array<{ id: string; email: string }>).find((u) => u.email === email.toLowerCase());
    if (!row) throw new Error(`${email} not among pending users: ${pending.status}`);
    return { id: row.id, email: row.email };
  }

  async setStatus(userId: string, status: "approved" | "rejected") {
    const answer = await this.call("PATCH", `/api/auth/users/${userId}/status`, jsonBody({ status }), this.adminCookie);
    if (answer.status !== 200) throw new Error(`status ${status} for ${userId}: ${answer.status} ${answer.text.slice(0, 200)}`);
  }

  /** A registered, approved and signed-in investor. */
  async investor(): Promise<{ id: string; email: string; cookie: string }> {
    const user = await this.register();
    await this.setStatus(user.id, "approved");
    return { ...user, cookie: await this.signIn(user.email) };
  }

  async uploadDocument(title = `Doc ${unique()}`): Promise<string> {
    const body = multipartBody({ title, category: "reports" }, { name: "report.pdf", type: "application/pdf", bytes: samplePdf(title) });
    const answer = await this.call("POST", "/api/documents", body, this.adminCookie);
    if (answer.status !== 201) throw new Error(`upload: ${answer.status} ${answer.text.slice(0, 200)}`);
    return (JSON.parse(answer.text) as { id: string }).id;
  }

  async uploadFundDocument(fundId: "fund-i" | "fund-ii", title = `Fund doc ${unique()}`): Promise<string> {
    const body = multipartBody(
      { title, category: "fund_documents", fundId },
      { name: "fund.pdf", type: "application/pdf", bytes: samplePdf(title) },
    );
    const answer = await this.call("POST", "/api/fund-documents", body, this.adminCookie);
    if (answer.status !== 201) throw new Error(`fund upload: ${answer.status} ${answer.text.slice(0, 200)}`);
    return (JSON.parse(answer.text) as { id: string }).id;
  }

  /** A newsletter sign-up (pending until confirmed); returns the subscriber's id and its signed unsubscribe token. */
  async subscriber(): Promise<{ id: string; email: string; unsubscribeToken: string }> {
    const address = email("nl-sub");
    const answer = await this.call("POST", "/api/newsletter", jsonBody({ email: address }));
    if (answer.status !== 202) throw new Error(`newsletter sign-up: ${answer.status} ${answer.text.slice(0, 200)}`);
    const id = dbValue<string>(this.server, "select id from newsletter_subscribers where email = ?", address);
    if (!id) throw new Error(`newsletter subscriber ${address} not stored`);
    return { id, email: address, unsubscribeToken: signedIdToken(this.server.env.SESSION_SECRET!, "newsletter-unsubscribe", id) };
  }

  /** The signed token of an investor's new-document mail unsubscribe link. */
  documentMailToken(userId: string): string {
    return signedIdToken(this.server.env.SESSION_SECRET!, "document-mail-unsubscribe", userId);
  }

  /** A staged bulk upload batch (one PDF matching nobody); returns its id. */
  async bulkBatch(): Promise<string> {
    const body = multipartBody({ title: `Bulk ${unique()}`, category: "reports" }, pdfFile(), "files");
    const answer = await this.call("POST", "/admin/documents/bulk", body, this.adminCookie);
    const id = /^\/admin\/documents\/bulk\/([0-9a-f]{32})$/.exec(headerValue(answer, "location"))?.[1];
    if (answer.status !== 303 || !id) throw new Error(`bulk upload: ${answer.status} ${headerValue(answer, "location")} ${answer.text.slice(0, 200)}`);
    return id;
  }

  /** A founder's pitch (through the JSON endpoint); returns its id, found through the admin's list. */
  async pitch(): Promise<string> {
    const company = `Hardening Labs ${unique()}`;
    const answer = await this.call("POST", "/api/pitch", jsonBody({ ...pitch(), company }));
    if (answer.status !== 201 && answer.status !== 200) throw new Error(`pitch: ${answer.status} ${answer.text.slice(0, 200)}`);
    const list = await this.call("GET", `/api/pitches?q=${encodeURIComponent(company)}`, undefined, this.adminCookie);
    const row = list.status === 200 ? (JSON.parse(list.text) as { pitches: Array<{ id: string }> }).pitches[0] : undefined;
    if (!row) throw new Error(`pitch ${company} not listed: ${list.status} ${list.text.slice(0, 200)}`);
    return row.id;
  }

  /**
   * The capital records the mutations act on (capitalRecords): `owner` owns
   * both entities (default: a new approved investor); a viewer and a
   * newcomer are made here.
   */
  async capital(owner?: { id: string; email: string }): Promise<CapitalIds> {
    const approved = async () => {
      const user = await this.register();
      await this.setStatus(user.id, "approved");
      return user;
    };
    return capitalRecords(
      (method, path, body) => this.call(method, path, body, this.adminCookie),
      {
        owner: owner ?? (await approved()),
        viewer: await approved(),
        newcomer: await approved(),
      },
      this.server,
    );
  }

  /** A fund access request (Fund II: the link is mailed); returns its id. */
  async fundRequest(fundId: "fund-i" | "fund-ii"): Promise<string> {
    const email = `fund-${unique()}@example.com`;
    const answer = await this.call(
      "POST",
      "/api/fund-access/register",
      jsonBody({ name: "Fund Visitor", email, fundId, accreditedConfirmation: true }),
    );
    if (answer.status !== 201) throw new Error(`fund request: ${answer.status} ${answer.text.slice(0, 200)}`);
    const list = await this.call("GET", "/api/fund-access/requests", undefined, this.adminCookie);
    const row = (JSON.parse(list.text) as Array<{ id: string; email: string; fundId: string }>).find(
      (r) => r.email === email && r.fundId === fundId,
    );
    if (!row) throw new Error(`fund request ${email} not listed: ${list.status}`);
    return row.id;
  }
}

// ─── capital accounts: records to aim at ────────────────────────────────────

/**
 * Capital records for the mutations and reads of issue 24 (made by
 * capitalRecords). Two entities with the same members, so that the JSON routes
 * and the entity page's forms each act on their own (a sweep may send both
 * side by side): `entityId` for the JSON, `formEntityId` for /admin/entities/{id}.
 * A publish and a DELETE each have a draft of their own; the payments go to a
 * published call. Fund I, accepted 2024-01-15; the call dated 2024-03-01.
 */
export type CapitalIds = {
  entityId: string;
  entityName: string;
  formEntityId: string;
  /** An approved investor, owner of both entities (the last owner: never removed). */
  ownerId: string;
  ownerEmail: string;
  /** A viewer of both entities (the DELETE and remove-member target). */
  viewerId: string;
  /** An approved investor who is a member of neither (the add-member target, JSON and form). */
  newcomerId: string;
  newcomerEmail: string;
  /** Each entity's Fund I commitment (the raise targets). */
  commitmentId: string;
  formCommitmentId: string;
  /** Drafts: one to publish, one to delete; a published call (payments, reads, the notice page). */
  draftCallId: string;
  deleteCallId: string;
  publishedCallId: string;
  /** The ledger pages' own drafts: one the entry page publishes, one it deletes, one the change form redrafts. */
  formDraftCallId: string;
  formDeleteCallId: string;
  changeCallId: string;
  draftDistributionId: string;
  deleteDistributionId: string;
  publishedDistributionId: string;
  /**
   * Quarterly statements (issue 25; STATEMENT_QUARTERS): the JSON entity's statement of the quarter published at
   * setup (its owner reads it), that publishing's PDF job, and a history file previewed on the fund's import page,
   * staged in incoming/ for its confirm (the form's hidden fields).
   */
  statementId: string;
  statementJobId: string;
  historyConfirm: { upload: string; hash: string; signature: string; names: string };
};

/** The fund of the capital records' commitments: `{slug}` in MUTATIONS. */
export const CAPITAL_FUND = "fund-i";
export const CAPITAL_DATES = { accepted: "2024-01-15", notice: "2024-03-01", due: "2024-03-29", paid: "2024-03-20", distributed: "2024-06-28", raised: "2024-06-30", valued: "2024-06-30" };
export const callBody = (extra: Record<string, unknown> = {}) => ({
  fund: "fund-i",
  noticeDate: CAPITAL_DATES.notice,
  dueDate: CAPITAL_DATES.due,
  lines: [
    { type: "investment", amount: "80000.00", description: "Hardening call" },
    { type: "management_fee", amount: "20000.00" },
  ],
  ...extra,
});
export const distributionBody = (extra: Record<string, unknown> = {}) => ({
  fund: "fund-i",
  paymentDate: CAPITAL_DATES.distributed,
  lines: [
    { type: "return_of_capital", amount: "15000.00", recallable: true, description: "Hardening distribution" },
    { type: "realized_gain", amount: "5000.00" },
  ],
  ...extra,
});

/**
 * A ledger form's fields as the page posts them: the dates, two lines
 * (lines.{n}.type / amount / description, and recallable for a distribution's
 * return of capital), the intent.
 */
export function ledgerFormFields(kind: "call" | "distribution", intent: string, lines: Array<{ type?: string; amount: string; description?: string }> = []): Record<string, string> {
  const given = lines.length
    ? lines
    : kind === "call"
      ? [
          { type: "investment", amount: "8000.00", description: "Hardening form line" },
          { type: "management_fee", amount: "500.00" },
        ]
      : [
          { type: "return_of_capital", amount: "1500.00", description: "Hardening form line" },
          { type: "income", amount: "250.00" },
        ];
  const fields: Record<string, string> = kind === "call" ? { noticeDate: CAPITAL_DATES.notice, dueDate: CAPITAL_DATES.due } : { paymentDate: CAPITAL_DATES.distributed };
  given.forEach((line, n) => {
    fields[`lines.${n}.type`] = line.type ?? (kind === "call" ? "investment" : "return_of_capital");
    fields[`lines.${n}.amount`] = line.amount;
    if (line.description !== undefined) fields[`lines.${n}.description`] = line.description;
    if (kind === "distribution" && n === 0) fields[`lines.${n}.recallable`] = "on";
  });
  return { intent, ...fields };
}

/**
 * The capital fund's quarters the records prepare for the statements' mutations (issue 25): every quarter end from
 * 2024-09-30 to 2025-12-31 is valued at QUARTER_NAV for both entities, so a quarter with nothing else in it ties with
 * P&L rows that sum to 0 (PNL_AMOUNTS). Each mutation has a quarter of its own (the headers section sends them side by side).
 */
export const STATEMENT_QUARTERS = {
  /** Imported and published at setup: the statements read (/lp/statements/{id}); restate-quarter reopens it. */
  published: "2024-Q4",
  /** POST /api/statements/import's preview and commit (nothing imported before). */
  imported: "2025-Q1",
  /** Imported at setup: POST /api/statements/publish. */
  toPublish: "2025-Q2",
  /** The statements page's import (its confirm). */
  pageImport: "2025-Q3",
  /** Imported at setup: the statements page's publish-quarter. */
  pagePublish: "2025-Q4",
} as const;
const VALUED_QUARTER_ENDS = ["2024-09-30", "2024-12-31", "2025-03-31", "2025-06-30", "2025-09-30", "2025-12-31"];
export const QUARTER_NAV = "1000000.00";
/** The P&L columns as the import names them (app/modules/statements/pnl-csv.server.ts). */
export const PNL_HEADER = "entity,fund,quarter,management_fees,partnership_expenses,other_income,realized_gain,unrealized_gain_change,carried_interest_change";
/** A quarter's six amounts that sum to 0 (fees and expenses negative, income and the unrealised gain positive). */
export const PNL_AMOUNTS = ["-1250.00", "-310.00", "40.00", "0.00", "1520.00", "0.00"];
/** A P&L CSV of the capital fund: a row per [entity (id or name), quarter], each with PNL_AMOUNTS. */
export function pnlCsv(rows: Array<[string, string]>, fund: string = CAPITAL_FUND): string {
  return [PNL_HEADER, ...rows.map(([entity, quarter]) => [entity, fund, quarter, ...PNL_AMOUNTS].join(",")), ""].join("\n");
}
/** The history import's columns (app/modules/history-import). */
export const HISTORY_HEADER = "entity,event,date,due_date,reference,type,recallable,amount";
/** The date of the history file's valuation: inside no quarter the records prepare or publish. */
export const HISTORY_DATE = "2024-05-31";
/** A history CSV of one valuation of the named entity at HISTORY_DATE. */
export const historyCsv = (entityName: string, nav = "1000000.00") => `${HISTORY_HEADER}\n${entityName},valuation,${HISTORY_DATE},,,,,${nav}\n`;
export const csvBody = (text: string) => ({ headers: { "content-type": "text/csv" }, body: text });

/** A valuations CSV of the capital fund at CAPITAL_DATES.valued: a header and one row per [entity id, nav]. */
export function valuationsCsv(rows: Array<[string, string]>, fund = CAPITAL_FUND): string {
  return ["entity_id,fund,date,nav", ...rows.map(([id, nav]) => `${id},${fund},${CAPITAL_DATES.valued},${nav}`), ""].join("\n");
}

/** Payment instructions the form takes (a valid IBAN and BIC; the code apart). */
export const PAYMENT_DETAILS = {
  beneficiary: "Lumen Ridge Fund I LP",
  bankName: "Hardening Bank AG",
  bankAddress: "Bahnhofstrasse 1, 8001 Zurich",
  account: "CH93 0076 2011 6238 5295 7",
  swift: "UBSWCHZH80A",
  routing: "",
  reference: "Capital call, entity name",
};

let raises = 0;
/** An amount above every earlier raise in this process (a raise must be higher than the amount in force). */
const raisedAmount = () => `${2_000_000 + ++raises * 1_000}.00`;

type AdminCall = (method: string, path: string, body?: Body) => Promise<HttpAnswer>;

/** A hidden field's value in a page's HTML (React writes `name="…" value="…"`), unescaped. */
function hiddenValue(html: string, name: string): string {
  const raw = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
  return raw.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/**
 * Make the records of CapitalIds through the JSON API as the admin (`call` carries the admin's session); `server`'s
 * database names the statement published at setup (an admin reads no investor's list of them).
 */
export async function capitalRecords(
  call: AdminCall,
  people: { owner: { id: string; email: string }; viewer: { id: string; email: string }; newcomer: { id: string; email: string } },
  server: AppServer,
): Promise<CapitalIds> {
  const must = async (what: string, method: string, path: string, body: Body | undefined, status: number) => {
    const answer = await call(method, path, body);
    if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
    return JSON.parse(answer.text) as Record<string, unknown>;
  };
  const members = [
    { userId: people.owner.id, role: "owner" },
    { userId: people.viewer.id, role: "viewer" },
  ];
  const entityName = `Hardening Holdings ${unique()}`;
  const entityId = String((await must("entity", "POST", "/api/entities", jsonBody({ name: entityName, kind: "company", members }), 201)).id);
  const formEntityId = String((await must("form entity", "POST", "/api/entities", jsonBody({ name: `Hardening Trust ${unique()}`, kind: "trust", members }), 201)).id);
  const commit = async (id: string, amount: string) =>
    String((await must("commitment", "POST", "/api/commitments", jsonBody({ entityId: id, fund: "fund-i", amount, acceptedOn: CAPITAL_DATES.accepted }), 201)).id);
  const commitmentId = await commit(entityId, "1000000.00");
  const formCommitmentId = await commit(formEntityId, "1000000.00");
  const draft = async (kind: "capital-calls" | "distributions") =>
    String((await must(`draft ${kind}`, "POST", `/api/${kind}`, jsonBody(kind === "capital-calls" ? callBody() : distributionBody()), 201)).id);
  const published = async (kind: "capital-calls" | "distributions") => {
    const id = await draft(kind);
    await must(`publish ${kind}`, "POST", `/api/${kind}/${id}/publish`, undefined, 200);
    return id;
  };
  // Statements (issue 25): the quarter ends valued, the P&L of three quarters imported, the first of them published.
  const Q = STATEMENT_QUARTERS;
  for (const date of VALUED_QUARTER_ENDS) {
    const values = [entityId, formEntityId].map((id) => ({ entityId: id, nav: QUARTER_NAV }));
    await must(`valuations ${date}`, "POST", "/api/valuations", jsonBody({ fund: CAPITAL_FUND, date, values }), 201);
  }
  for (const quarter of [Q.published, Q.toPublish, Q.pagePublish]) {
    const csv = pnlCsv([entityId, formEntityId].map((id): [string, string] => [id, quarter]));
    await must(`P&L ${quarter}`, "POST", `/api/statements/import?fund=${CAPITAL_FUND}&commit=1`, csvBody(csv), 201);
  }
  const statementJobId = String((await must(`publish ${Q.published}`, "POST", "/api/statements/publish", jsonBody({ fund: CAPITAL_FUND, quarter: Q.published }), 202)).jobId);
  const statementId = dbValue<string>(
    server,
    "select s.id from statements s join statement_quarters q on q.id = s.quarter_id where s.entity_id = ? and q.quarter = ? order by q.version desc",
    entityId,
    Q.published,
  );
  if (!statementId) throw new Error(`no statement of ${Q.published} for ${entityId}`);
  // A history file previewed (no JavaScript: the page with its confirm form): its pair waits in incoming/ for the confirm.
  const names = "history.csv";
  const preview = await call(
    "POST",
    `/admin/funds/${CAPITAL_FUND}/import`,
    multipartBody({ intent: "history-import", step: "preview" }, { name: names, type: "text/csv", bytes: Buffer.from(historyCsv(entityName)) }, "history"),
  );
  const historyConfirm = { upload: hiddenValue(preview.text, "upload"), hash: hiddenValue(preview.text, "hash"), signature: hiddenValue(preview.text, "signature"), names };
  if (preview.status !== 200 || !/^[0-9a-f]{32}$/.test(historyConfirm.upload) || !historyConfirm.hash) throw new Error(`history preview: ${preview.status} ${preview.text.slice(0, 300)}`);
  return {
    entityId,
    entityName,
    formEntityId,
    ownerId: people.owner.id,
    ownerEmail: people.owner.email,
    viewerId: people.viewer.id,
    newcomerId: people.newcomer.id,
    newcomerEmail: people.newcomer.email,
    commitmentId,
    formCommitmentId,
    draftCallId: await draft("capital-calls"),
    deleteCallId: await draft("capital-calls"),
    publishedCallId: await published("capital-calls"),
    formDraftCallId: await draft("capital-calls"),
    formDeleteCallId: await draft("capital-calls"),
    changeCallId: await draft("capital-calls"),
    draftDistributionId: await draft("distributions"),
    deleteDistributionId: await draft("distributions"),
    publishedDistributionId: await published("distributions"),
    statementId,
    statementJobId,
    historyConfirm,
  };
}

/**
 * Wait until the server's background PDF jobs (notices of published entries, statements of a published quarter) have
 * all finished, at most `timeoutMs`: they write documents and files on their own schedule, which a before/after
 * comparison must not take for a request's doing. True when none runs.
 */
export async function pdfJobsSettled(server: AppServer, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = dbValue<number>(server, "select count(*) from pdf_jobs where status <> 'finished'") ?? 0;
    if (running === 0) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The real id a capital read of READS takes (`/api/commitments/{id}` …), or undefined for another path. */
export function capitalReadId(path: string, c: CapitalIds): string | undefined {
  const ids: Record<string, string> = {
    "/api/commitments/{id}": c.commitmentId,
    "/api/capital-calls/{id}": c.publishedCallId,
    "/api/distributions/{id}": c.publishedDistributionId,
    "/admin/entities/{id}": c.entityId,
    "/lp/notices/{id}": c.publishedCallId,
    "/admin/ledger/{id}": c.publishedCallId,
    "/admin/ledger/{id}/change": c.changeCallId,
    "/lp/statements/{id}": c.statementId,
    "/api/statements/jobs/{id}": c.statementJobId,
  };
  return ids[path];
}

// ─── a request for every state-changing route ───────────────────────────────

export type Ids = {
  adminEmail: string;
  /**
   * Who the JSON sign-in and the /lp/login form sign in (default: the admin).
   * An admin needs a two-factor code on the JSON sign-in (401 without it) and
   * goes on to the code step from the forms; an approved investor without
   * two-factor signs in with the password alone.
   */
  signInEmail?: string;
  /** A pending investor (status change target). */
  userId: string;
  documentId: string;
  fundDocumentId: string;
  /** A live Fund II request (revoke target) and another (resend target). */
  revokeRequestId: string;
  resendRequestId: string;
  /** A pitch (status, owner, note and reply target). */
  pitchId: string;
  /** A staged bulk upload batch (publish and cancel target); a made-up one (no batch behind it) when not given. */
  batchId?: string;
  /** The mailed links' tokens; a made-up one of the right shape (the page answers 400) when not given. */
  documentMailToken?: string;
  newsletterUnsubscribeToken?: string;
  newsletterConfirmToken?: string;
  /** A live registration confirmation token (its registration's password is PASSWORD). */
  registrationConfirmToken?: string;
  /** Entities, commitments, drafts and published entries (Portal.capital, capitalRecords). */
  capital: CapitalIds;
  /**
   * A fresh two-factor code of the admin's (a step not used yet: tests/support/totp.ts nextTotpCode) for the
   * payment instructions form; without it the form gets a made-up code (refused, and it counts against the
   * admin's code attempts: only sweeps that never reach the action may go without).
   */
  paymentCode?: string;
};

export type Target = {
  /** "POST /admin/investors (intent=status)", "POST /process (multipart)" */
  label: string;
  method: Mutation["method"];
  path: string;
  routePath: string;
  /** endpoints.ts's name of it (mutationKey): "POST /admin/investors status", "POST /process (multipart)". */
  route: string;
  kind: BodyKind;
  role: Role;
  intent?: string;
  /** A fresh valid body (new e-mail addresses etc. each call). */
  build: () => Body;
  /** For sign-in and registration: a body the route refuses before any bcrypt work (invalid password field). */
  quick?: () => Body;
};

const pdfFile = () => ({ name: "hardening.pdf", type: "application/pdf", bytes: samplePdf(`Hardening ${unique()}`) });
/** A reference code no other run of the builder gives (LRV- and 8 hex digits, upper case). */
const referenceCode = () => `LRV-${randomBytes(4).toString("hex").toUpperCase()}`;
/** A made-up token of a signed id's shape. */
const madeUpSignedToken = () => `${Buffer.from(randomBytes(8).toString("hex")).toString("base64url")}.${randomBytes(32).toString("base64url")}`;
const email = (what: string) => `${what}-${unique()}@example.com`;
const pitch = () => ({
  name: "Ada Founder",
  email: email("pitch"),
  company: "Hardening Labs",
  stage: "Seed",
  message: "We make hard things harder to break.",
});

/**
 * Every route in MUTATIONS (each dashboard intent separately) with a body the
 * route accepts from the right role. Throws for a route this file does not
 * know, so a new endpoint cannot slip past the sections unseen.
 */
export function mutationTargets(ids: Ids): Target[] {
  const c = ids.capital;
  const statementsPnl = (quarter: string) => pnlCsv([c.entityId, c.formEntityId].map((id): [string, string] => [id, quarter]));
  const builders: Record<string, () => Body> = {
    "POST /api/newsletter": () => jsonBody({ email: email("nl") }),
    "POST /api/pitch": () => jsonBody(pitch()),
    "POST /api/pitch (multipart)": () => multipartBody(pitch(), { ...pdfFile(), name: "deck.pdf" }, "deck"),
    "POST /api/auth/register": () => jsonBody({ email: email("reg"), password: PASSWORD, name: "New Investor" }),
    "POST /api/auth/login": () => jsonBody({ email: ids.signInEmail ?? ids.adminEmail, password: PASSWORD }),
    "POST /api/auth/logout": () => ({ headers: {} }),
    "PATCH /api/auth/users/{id}/status": () => jsonBody({ status: "approved" }),
    "PUT /api/auth/users/{id}/reference-code": () => jsonBody({ referenceCode: referenceCode() }),
    "POST /api/documents": () => multipartBody({ title: `Doc ${unique()}`, category: "reports" }, pdfFile()),
    "DELETE /api/documents/{id}": () => ({ headers: {} }),
    "POST /api/fund-access/register": () => jsonBody({ name: "Fund Visitor", email: email("fund"), fundId: "fund-i" }),
    "POST /api/fund-access/validate-token": () => jsonBody({ token: randomBytes(32).toString("base64url") }),
    "POST /api/fund-documents": () =>
      multipartBody({ title: `Fund doc ${unique()}`, category: "fund_documents", fundId: "fund-ii" }, pdfFile()),
    "DELETE /api/fund-documents/{id}": () => ({ headers: {} }),
    "POST /newsletter": () => formBody({ email: email("nl-form") }),
    "POST /process": () => formBody(pitch()),
    "POST /process (multipart)": () => multipartBody(pitch(), { ...pdfFile(), name: "deck.pdf" }, "deck"),
    // RFC 8058's body, as a mail provider and the page's own button send it.
    "POST /unsubscribe/documents?token={token}": () => formBody({ "List-Unsubscribe": "One-Click" }),
    "POST /unsubscribe/newsletter?token={token}": () => formBody({ "List-Unsubscribe": "One-Click" }),
    "POST /newsletter/confirm?token={token}": () => formBody({}),
    // A registration's confirmation with its password (decision 028); 'Send the link again' from the sign-in page.
    "POST /lp/register/confirm?token={token}": () => formBody({ password: PASSWORD }),
    "POST /lp/register/confirm resend": () => formBody({ intent: "resend", email: email("resend") }),
    "POST /login": () => formBody({ username: "someone", password: "whatever" }),
    "POST /lp/login": () => formBody({ email: ids.signInEmail ?? ids.adminEmail, password: PASSWORD }),
    "POST /admin/login": () => formBody({ email: ids.adminEmail, password: PASSWORD }),
    "POST /lp/register": () => formBody({ email: email("reg-form"), password: PASSWORD, name: "Form Investor" }),
    "POST /lp/forgot-password": () => formBody({ email: ids.adminEmail }),
    "POST /lp/reset-password": () => formBody({ token: randomBytes(32).toString("base64url"), password: "a-new-password-456" }),
    "POST /fund-i/signup": () => formBody({ name: "Fund I Visitor", email: email("fund-i") }),
    "POST /fund-ii/signup": () => formBody({ name: "Fund II Visitor", email: email("fund-ii"), accreditedConfirmation: "on" }),
    "POST /theme": () => formBody({ theme: "dark", redirectTo: "/" }),
    "POST /logout": () => formBody({}),
    "POST /admin/dashboard status": () => formBody({ intent: "status", userId: ids.userId, status: "approved" }),
    "POST /admin/investors status": () => formBody({ intent: "status", userId: ids.userId, status: "approved" }),
    "POST /admin/investors set-reference-code": () => formBody({ intent: "set-reference-code", userId: ids.userId, referenceCode: referenceCode() }),
    "POST /admin/documents delete-document": () => formBody({ intent: "delete-document", documentId: ids.documentId }),
    "POST /admin/documents/{id}/access set-audience": () => formBody({ intent: "set-audience", documentId: ids.documentId, audience: "all" }),
    "POST /admin/documents/{id}/access remind-unopened": () => formBody({ intent: "remind-unopened", documentId: ids.documentId }),
    "POST /admin/documents/bulk": () => multipartBody({ title: `Bulk ${unique()}`, category: "reports" }, pdfFile(), "files"),
    // The batch's one file matches nobody: nothing to publish, so publish is refused (a flash) and changes nothing.
    "POST /admin/documents/bulk/{batchId} publish": () => formBody({ intent: "publish", expected: "1" }),
    "POST /admin/documents/bulk/{batchId} cancel": () => formBody({ intent: "cancel" }),
    "PATCH /api/documents/{id}": () => jsonBody({ audience: "all" }),
    "PATCH /api/pitches/{id}": () => jsonBody({ status: "in_review" }),
    "POST /api/pitches/{id}/replies": () => jsonBody({ subject: "Your pitch", body: "Thank you for your pitch." }),
    "POST /admin/pitches/{id} status": () => formBody({ intent: "status", status: "in_review" }),
    "POST /admin/pitches/{id} owner": () => formBody({ intent: "owner", ownerId: "" }),
    "POST /admin/pitches/{id} note": () => formBody({ intent: "note", note: "A note from the hardening run." }),
    "POST /admin/pitches/{id} reply": () => formBody({ intent: "reply", subject: "Your pitch", body: "Thank you for your pitch." }),
    "POST /admin/fund-access revoke-fund-access": () => formBody({ intent: "revoke-fund-access", requestId: ids.revokeRequestId }),
    "POST /admin/fund-access resend-fund-access-link": () =>
      formBody({ intent: "resend-fund-access-link", requestId: ids.resendRequestId }),
    "POST /admin/fund-access delete-fund-document": () => formBody({ intent: "delete-fund-document", documentId: ids.fundDocumentId }),
    "POST /admin/documents": () => multipartBody({ title: `Form doc ${unique()}`, category: "reports" }, pdfFile()),
    "POST /admin/fund-documents": () =>
      multipartBody({ title: `Form fund doc ${unique()}`, category: "fund_documents", fundId: "fund-ii" }, pdfFile()),
    // Capital accounts: each body is one the route takes from the admin (a second commitment to Fund II, an add of a member: 409 once done).
    "POST /api/entities": () => jsonBody({ name: `Entity ${unique()}`, kind: "company", members: [{ userId: c.ownerId, role: "owner" }] }),
    "POST /api/entities/{id}/members": () => jsonBody({ userId: c.newcomerId, role: "viewer" }),
    "DELETE /api/entities/{id}/members/{userId}": () => ({ headers: {} }),
    "POST /api/commitments": () => jsonBody({ entityId: c.entityId, fund: "fund-ii", amount: "500000.00", acceptedOn: CAPITAL_DATES.accepted }),
    "PATCH /api/commitments/{id}": () => jsonBody({ amount: raisedAmount(), effectiveOn: CAPITAL_DATES.raised }),
    "POST /api/capital-calls": () => jsonBody(callBody()),
    "POST /api/capital-calls/{id}/publish": () => ({ headers: {} }),
    "DELETE /api/capital-calls/{id}": () => ({ headers: {} }),
    "POST /api/capital-calls/{id}/payments": () => jsonBody({ entityId: c.entityId, amount: "1.00", receivedOn: CAPITAL_DATES.paid }),
    "POST /api/distributions": () => jsonBody(distributionBody()),
    "POST /api/distributions/{id}/publish": () => ({ headers: {} }),
    "DELETE /api/distributions/{id}": () => ({ headers: {} }),
    "POST /api/valuations": () => jsonBody({ fund: "fund-i", date: CAPITAL_DATES.valued, values: [{ entityId: c.entityId, nav: "1100000.00" }] }),
    "POST /admin/entities create-entity": () => formBody({ intent: "create-entity", name: `Form entity ${unique()}`, kind: "trust", ownerEmail: c.ownerEmail }),
    "POST /admin/entities/{id} add-member": () => formBody({ intent: "add-member", email: c.newcomerEmail, role: "viewer" }),
    "POST /admin/entities/{id} remove-member": () => formBody({ intent: "remove-member", userId: c.viewerId, name: "Hardening Investor" }),
    "POST /admin/entities/{id} add-commitment": () => formBody({ intent: "add-commitment", fund: "fund-ii", amount: "250000.00", acceptedOn: CAPITAL_DATES.accepted }),
    "POST /admin/entities/{id} raise-commitment": () =>
      formBody({ intent: "raise-commitment", commitmentId: c.formCommitmentId, amount: raisedAmount(), effectiveOn: CAPITAL_DATES.raised }),
    // The ledger forms, as the page posts them (two lines; Remove drops the first; preview drafts, or redrafts the change's draft).
    ...Object.fromEntries(
      (["/admin/funds/{slug}/calls/new", "/admin/funds/{slug}/distributions/new", "/admin/ledger/{id}/change"] as const).flatMap((path) =>
        LEDGER_FORM_INTENTS.map((intent) => [`POST ${path} ${intent}`, () => formBody(ledgerFormFields(path.includes("/distributions/") ? "distribution" : "call", intent))]),
      ),
    ),
    "POST /admin/ledger/{id} publish": () => formBody({ intent: "publish" }),
    "POST /admin/ledger/{id} delete-draft": () => formBody({ intent: "delete-draft" }),
    "POST /admin/ledger/{id} record-payment": () => formBody({ intent: "record-payment", entityId: c.entityId, amount: "1.00", receivedOn: CAPITAL_DATES.paid }),
    // The import's confirm (it writes): the previewed text of one valuation of the JSON's entity.
    "POST /admin/funds/{slug}/valuations valuations": () => multipartBody({ intent: "valuations", step: "confirm", csv: valuationsCsv([[c.entityId, "1100000.00"]]), expected: "1", fileName: "navs.csv" }),
    "POST /admin/funds/{slug}/payment-instructions payment-instructions": () => formBody({ ...PAYMENT_DETAILS, intent: "payment-instructions", code: ids.paymentCode ?? "000000" }),
    // Statements (issue 25): each on a quarter of its own (STATEMENT_QUARTERS), P&L rows that tie for both entities.
    "POST /api/statements/import?fund={slug}": () => csvBody(statementsPnl(STATEMENT_QUARTERS.imported)),
    "POST /api/statements/import?fund={slug}&commit=1": () => csvBody(statementsPnl(STATEMENT_QUARTERS.imported)),
    "POST /api/statements/publish": () => jsonBody({ fund: CAPITAL_FUND, quarter: STATEMENT_QUARTERS.toPublish }),
    "POST /admin/funds/{slug}/statements statements-import": () =>
      multipartBody({ intent: "statements-import", step: "confirm", csv: statementsPnl(STATEMENT_QUARTERS.pageImport), expected: "2", fileName: "pnl.csv" }),
    "POST /admin/funds/{slug}/statements publish-quarter": () => formBody({ intent: "publish-quarter", quarter: STATEMENT_QUARTERS.pagePublish }),
    "POST /admin/funds/{slug}/statements restate-quarter": () => formBody({ intent: "restate-quarter", quarter: STATEMENT_QUARTERS.published }),
    "POST /admin/funds/{slug}/statements statements-watermark": () => formBody({ intent: "statements-watermark", watermark: "on" }),
    // The history import: a file previewed (its pair staged), and the records' staged pair confirmed (a valuation written).
    "POST /admin/funds/{slug}/import history-import (multipart)": () =>
      multipartBody({ intent: "history-import", step: "preview" }, { name: "history.csv", type: "text/csv", bytes: Buffer.from(historyCsv(c.entityName)) }, "history"),
    "POST /admin/funds/{slug}/import history-import": () => formBody({ intent: "history-import", step: "confirm", ...c.historyConfirm }),
  };
  const quick: Record<string, () => Body> = {
    "POST /api/auth/register": () => jsonBody({ email: email("reg"), password: "short", name: "New Investor" }),
    "POST /api/auth/login": () => jsonBody({ email: ids.adminEmail, password: "" }),
    "POST /lp/login": () => formBody({ email: ids.adminEmail, password: "" }),
    "POST /admin/login": () => formBody({ email: ids.adminEmail, password: "" }),
    "POST /lp/register": () => formBody({ email: email("reg-form"), password: "short", name: "Form Investor" }),
    // No code: refused on its field before any code is checked (a wrong one counts against the admin).
    "POST /admin/funds/{slug}/payment-instructions payment-instructions": () => formBody({ ...PAYMENT_DETAILS, intent: "payment-instructions", code: "" }),
  };
  const idFor: Record<string, string> = {
    "/api/auth/users/{id}/status": ids.userId,
    "/api/documents/{id}": ids.documentId,
    "/admin/documents/{id}/access": ids.documentId,
    "/api/fund-documents/{id}": ids.fundDocumentId,
    "/api/pitches/{id}": ids.pitchId,
    "/api/pitches/{id}/replies": ids.pitchId,
    "/admin/pitches/{id}": ids.pitchId,
    "/api/auth/users/{id}/reference-code": ids.userId,
    "/api/entities/{id}/members": c.entityId,
    "/api/entities/{id}/members/{userId}": c.entityId,
    "/api/commitments/{id}": c.commitmentId,
    "/api/capital-calls/{id}/publish": c.draftCallId,
    "/api/capital-calls/{id}": c.deleteCallId,
    "/api/capital-calls/{id}/payments": c.publishedCallId,
    "/api/distributions/{id}/publish": c.draftDistributionId,
    "/api/distributions/{id}": c.deleteDistributionId,
    "/admin/entities/{id}": c.formEntityId,
    "/admin/ledger/{id}/change": c.changeCallId,
    // The entry page: each intent its own entry (mutationKey first).
    "POST /admin/ledger/{id} publish": c.formDraftCallId,
    "POST /admin/ledger/{id} delete-draft": c.formDeleteCallId,
    "POST /admin/ledger/{id} record-payment": c.publishedCallId,
  };
  /** The second id of a path (`{userId}`): the viewer the DELETE removes. */
  const userIdFor: Record<string, string> = { "/api/entities/{id}/members/{userId}": c.viewerId };
  const tokenFor: Record<string, string> = {
    "/unsubscribe/documents?token={token}": ids.documentMailToken ?? madeUpSignedToken(),
    "/unsubscribe/newsletter?token={token}": ids.newsletterUnsubscribeToken ?? madeUpSignedToken(),
    "/newsletter/confirm?token={token}": ids.newsletterConfirmToken ?? randomBytes(32).toString("base64url"),
    "/lp/register/confirm?token={token}": ids.registrationConfirmToken ?? randomBytes(32).toString("base64url"),
  };
  const batchId = ids.batchId ?? madeUpBatchId();
  const targets: Target[] = [];
  for (const m of MUTATIONS) {
    for (const intent of m.intents ?? [undefined]) {
      const key = mutationKey(m, intent);
      const build = builders[key];
      if (!build) throw new Error(`no request body for ${key}: add it to hardening/web-helpers.ts mutationTargets`);
      const id = idFor[key] ?? idFor[m.path];
      if (m.path.includes("{id}") && !id) throw new Error(`no id for ${m.path}`);
      const userId = userIdFor[m.path];
      if (m.path.includes("{userId}") && !userId) throw new Error(`no user id for ${m.path}`);
      const token = tokenFor[m.path];
      if (m.path.includes("{token}") && !token) throw new Error(`no token for ${m.path}`);
      const twin = key.endsWith(" (multipart)") ? " (multipart)" : "";
      targets.push({
        label: `${m.method} ${m.path}${intent ? ` (intent=${intent})` : ""}${twin}`,
        method: m.method,
        path: m.path
          .replace("{id}", id ?? "")
          .replace("{userId}", userId ?? "")
          .replace("{batchId}", batchId)
          .replace("{slug}", CAPITAL_FUND)
          .replace("{token}", encodeURIComponent(token ?? "")),
        routePath: m.path,
        route: key,
        kind: m.kind,
        role: m.role,
        intent,
        build,
        quick: quick[key],
      });
    }
  }
  return targets;
}

/**
 * Every route in ACCOUNT_MUTATIONS (each account intent on its own). `build`
 * is a body the form takes (a made-up code, the harness password as the
 * current one, a made-up session id); `quick` one its validation refuses
 * before anything is checked or changed (an empty code or password).
 */
export function accountTargets(): Target[] {
  const made = (intent: string | undefined): { build: () => Body; quick: () => Body } => {
    const fields: Record<string, string> = intent ? { intent } : {};
    switch (intent) {
      case "change-password":
        return {
          build: () => formBody({ ...fields, currentPassword: PASSWORD, password: `changed-${unique()}-password` }),
          quick: () => formBody({ ...fields, currentPassword: "", password: "" }),
        };
      case "revoke-session":
        return { build: () => formBody({ ...fields, sessionId: randomBytes(16).toString("hex") }), quick: () => formBody({ ...fields, sessionId: "" }) };
      case "revoke-others":
        return { build: () => formBody(fields), quick: () => formBody(fields) };
      case "document-mail":
        return { build: () => formBody({ ...fields, documentMail: "weekly" }), quick: () => formBody({ ...fields, documentMail: "" }) };
      default:
        // The code step and the two-factor intents: a code that is (almost surely) wrong, or none.
        return { build: () => formBody({ ...fields, code: String(randomBytes(4).readUInt32BE() % 1_000_000).padStart(6, "0") }), quick: () => formBody({ ...fields, code: "" }) };
    }
  };
  return ACCOUNT_MUTATIONS.flatMap((m) =>
    (m.intents ?? [undefined]).map((intent): Target => ({
      label: `${m.method} ${m.path}${intent ? ` (intent=${intent})` : ""}`,
      method: m.method,
      path: m.path,
      routePath: m.path,
      route: `${m.method} ${m.path}${intent ? ` ${intent}` : ""}`,
      kind: m.kind,
      role: m.role,
      intent,
      ...made(intent),
    })),
  );
}

// ─── state ──────────────────────────────────────────────────────────────────

/**
 * A hash of every table's rows (the outbox by row ids only: the mailer updates
 * delivery columns on its own schedule). Equal fingerprints: nothing changed.
 */
export function dbFingerprint(server: AppServer): Map<string, string> {
  const db = openDatabase(server);
  try {
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name")
      .all() as Array<{ name: string }>;
    const out = new Map<string, string>();
    for (const { name } of tables) {
      const sql = name === "email_outbox" ? `select id from "${name}" order by rowid` : `select * from "${name}" order by rowid`;
      const rows = db.prepare(sql).raw().all();
      const text = JSON.stringify(rows, (_k, v: unknown) =>
        typeof v === "bigint" ? v.toString() : Buffer.isBuffer(v) ? v.toString("hex") : v,
      );
      out.set(name, `${rows.length}:${createHash("sha256").update(text).digest("hex")}`);
    }
    return out;
  } finally {
    db.close();
  }
}

export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((name) => before.get(name) !== after.get(name));
}

/** One value from the server's database (read-only). */
export function dbValue<T>(server: AppServer, sql: string, ...params: unknown[]): T | undefined {
  const db = openDatabase(server);
  try {
    return db.prepare(sql).pluck().get(...params) as T | undefined;
  } finally {
    db.close();
  }
}

/** Rows from the server's database (read-only). */
export function dbRows(server: AppServer, sql: string, ...params: unknown[]): unknown[] {
  const db = openDatabase(server);
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

// ─── security headers (DESIGN.md §4) ────────────────────────────────────────

export const HEADER_RULES = [
  "csp present",
  "csp object-src 'none'",
  "csp base-uri 'none'",
  "csp frame-ancestors 'none'",
  "nosniff",
  "referrer-policy",
  "hsts",
  "no-store",
] as const;
export type HeaderRule = (typeof HEADER_RULES)[number];

const REFERRER_POLICIES = new Set([
  "no-referrer",
  "same-origin",
  "strict-origin",
  "strict-origin-when-cross-origin",
  "no-referrer-when-downgrade",
  "origin",
  "origin-when-cross-origin",
]);
/** HSTS must last at least a year. */
export const HSTS_MIN_SECONDS = 365 * 24 * 60 * 60;

function cspDirectives(value: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of value.split(";")) {
    const [name, ...tokens] = part.trim().split(/\s+/);
    if (name && !out.has(name.toLowerCase())) out.set(name.toLowerCase(), tokens);
  }
  return out;
}

const only = (tokens: string[] | undefined, expected: string) => tokens?.length === 1 && tokens[0] === expected;

/**
 * The rules an answer breaks. `https`: HSTS is required; `noStore`: a private
 * answer (JSON, portal page, file, or one that sets a cookie). An inline file
 * view may say object-src 'self' (the browser's PDF viewer; file-response.server.ts).
 */
export function headerProblems(answer: HttpAnswer, { https, noStore }: { https: boolean; noStore: boolean }): HeaderRule[] {
  const problems: HeaderRule[] = [];
  const csp = headerValue(answer, "content-security-policy");
  if (!csp) problems.push("csp present");
  const directives = cspDirectives(csp);
  const inlineFile = /^inline\b/i.test(headerValue(answer, "content-disposition"));
  const objectSrc = directives.get("object-src");
  if (!(only(objectSrc, "'none'") || (inlineFile && only(objectSrc, "'self'")))) problems.push("csp object-src 'none'");
  if (!only(directives.get("base-uri"), "'none'")) problems.push("csp base-uri 'none'");
  if (!only(directives.get("frame-ancestors"), "'none'")) problems.push("csp frame-ancestors 'none'");
  if (headerValue(answer, "x-content-type-options").toLowerCase() !== "nosniff") problems.push("nosniff");
  const referrer = headerValue(answer, "referrer-policy").toLowerCase();
  if (!referrer.split(",").map((s) => s.trim()).some((p) => REFERRER_POLICIES.has(p))) problems.push("referrer-policy");
  if (https) {
    const maxAge = /max-age=(\d+)/i.exec(headerValue(answer, "strict-transport-security"));
    if (!maxAge || Number(maxAge[1]) < HSTS_MIN_SECONDS) problems.push("hsts");
  }
  if (noStore && !/(^|,)\s*no-store\s*(,|$)/i.test(headerValue(answer, "cache-control"))) problems.push("no-store");
  return problems;
}

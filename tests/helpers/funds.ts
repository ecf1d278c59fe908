import fs from "node:fs";
import { eq } from "drizzle-orm";
import { getDb } from "../../app/modules/db/connection.server";
import { accessLog, emailOutbox, fundAccessUsers, fundDocuments } from "../../db/schema";
import { hashToken, newToken } from "~/modules/auth/tokens.server";
import { getEnv } from "~/modules/config/env.server";
import { readFundCookie, setFundCookie } from "~/modules/fund-access/cookie.server";
import type { FundId } from "~/modules/fund-access/constants";
import { deliverDueMail, flushMailer } from "~/modules/mail/mail.server";
import { loader as requestsLoader } from "~/routes/api/fund-access/requests";
import { action as registerAction } from "~/routes/api/fund-access/register";
import { action as validateAction } from "~/routes/api/fund-access/validate-token";
import { action as fundDocumentAction, loader as fundListLoader } from "~/routes/api/fund-documents/by-key";
import { loader as fundFileLoader } from "~/routes/api/fund-documents/file";
import { storeFile } from "./documents";
import { MIME } from "./sample-files";
import { ORIGIN, apiRequest, callRouteWith, cookiePair } from "./users";

/**
 * Fund access and fund documents: the endpoints called like React Router does,
 * access links found in delivered mail, fund holders made straight in the
 * database, and a scan of every stored text for leaked secrets.
 */

/** The Fund II link in a delivered mail: APP_URL/fund-ii/documents?token=<43 base64url characters>. */
export const FUND_II_LINK = /http:\/\/localhost:3000\/fund-ii\/documents\?token=([A-Za-z0-9_-]{43})(?=\s|$)/;

/** The token of the (single) Fund II link in a mail text; throws when there is none. */
export function tokenFromMailText(text: string): string {
  const token = text.match(FUND_II_LINK)?.[1];
  if (!token) throw new Error(`no Fund II access link in:\n${text}`);
  return token;
}

/** POST /api/fund-access/register with a JSON body (a string is sent as it is). */
export function registerFund(json: unknown, clientAddress?: string): Promise<Response> {
  return callRouteWith(
    registerAction,
    apiRequest("POST", "/api/fund-access/register", { json }),
    clientAddress ? { clientAddress } : {},
  );
}

/** POST /api/fund-access/validate-token { token }. */
export function validateToken(token: unknown, { cookie, clientAddress }: { cookie?: string; clientAddress?: string } = {}) {
  return callRouteWith(
    validateAction,
    apiRequest("POST", "/api/fund-access/validate-token", { json: { token }, cookie }),
    clientAddress ? { clientAddress } : {},
  );
}

/** GET /api/fund-access/requests; `cookie: null` sends none. */
export function listAccessRequests(cookie: string | null) {
  return callRouteWith(requestsLoader, apiRequest("GET", "/api/fund-access/requests", { cookie: cookie ?? undefined }));
}

/** GET /api/fund-documents/{fund}; `cookie: null` sends none. */
export function listFundDocs(fundId: string, cookie: string | null) {
  return callRouteWith(fundListLoader, apiRequest("GET", `/api/fund-documents/${fundId}`, { cookie: cookie ?? undefined }), {
    params: { key: fundId },
  });
}

/** GET /api/fund-documents/view/{id} or /download/{id}. */
export function fundFile(kind: "view" | "download", id: string, cookie: string | null) {
  return callRouteWith(
    fundFileLoader,
    apiRequest("GET", `/api/fund-documents/${kind}/${encodeURIComponent(id)}`, { cookie: cookie ?? undefined }),
    { params: { id } },
  );
}

/** DELETE (or another method) /api/fund-documents/{id}. */
export function deleteFundDoc(id: string, cookie: string | null, method = "DELETE") {
  return callRouteWith(
    fundDocumentAction,
    apiRequest(method, `/api/fund-documents/${encodeURIComponent(id)}`, { cookie: cookie ?? undefined }),
    {
      params: { key: id },
    },
  );
}

/** Several `name=value` cookie pairs as one Cookie header. */
export function joinCookies(...pairs: (string | null | undefined)[]): string {
  return pairs.filter((p): p is string => Boolean(p)).join("; ");
}

/** The raw token inside a fund cookie pair (as the server reads it back). */
export function tokenInCookie(pair: string, fundId: FundId): Promise<string | null> {
  return readFundCookie(new Request(`${ORIGIN}/`, { headers: { Cookie: pair } }), fundId);
}

/** The Set-Cookie pair for a fund token, as validate-token (Fund II) or register (Fund I) set it. */
export async function fundCookiePair(fundId: FundId, token: string): Promise<string> {
  return cookiePair(await setFundCookie(fundId, token));
}

export function allAccessRequests() {
  return getDb().select().from(fundAccessUsers).all();
}

export function accessRequestByEmail(email: string, fundId: FundId) {
  return allAccessRequests().find((r) => r.email === email && r.fundId === fundId);
}

export function allFundDocuments() {
  return getDb().select().from(fundDocuments).all();
}

export function fundDocumentRow(id: string) {
  return getDb().select().from(fundDocuments).where(eq(fundDocuments.id, id)).get();
}

/** Empty the tables the fund access flows write to. */
export function clearFundAccess() {
  const db = getDb();
  db.delete(accessLog).run();
  db.delete(emailOutbox).run();
  db.delete(fundAccessUsers).run();
}

export type FundHolder = { row: typeof fundAccessUsers.$inferSelect; token: string; cookie: string };

let holderCount = 0;
/**
 * A live access request made straight in the database (as a validated sign-up
 * leaves it), with its raw token and the fund cookie pair that carries it.
 */
export async function insertFundHolder(fundId: FundId, email?: string): Promise<FundHolder> {
  holderCount++;
  const token = newToken();
  const row = getDb()
    .insert(fundAccessUsers)
    .values({
      email: email ?? `holder-${fundId}-${holderCount}@example.test`,
      name: `Holder ${holderCount}`,
      fundId,
      accreditedConfirmation: fundId === "fund-ii",
      accessTokenHash: hashToken(token),
    })
    .returning()
    .get();
  return { row, token, cookie: await fundCookiePair(fundId, token) };
}

/** A stored fund document: its file under fund-documents/ and its row. */
export function insertFundDoc(
  fundId: FundId,
  bytes: Uint8Array,
  overrides: Partial<typeof fundDocuments.$inferInsert> = {},
): typeof fundDocuments.$inferSelect {
  const filePath = storeFile("fund-documents", bytes);
  return getDb()
    .insert(fundDocuments)
    .values({
      fundId,
      title: `${fundId} quarterly letter`,
      category: "newsletters",
      fileName: `${fundId}-letter.pdf`,
      filePath,
      fileSize: bytes.byteLength,
      mimeType: MIME.pdf,
      ...overrides,
    })
    .returning()
    .get();
}

/** Let the background mail run finish, then deliver anything still due (as the mail worker would). */
export async function deliverMail(now?: Date): Promise<number> {
  await flushMailer();
  return deliverDueMail(getDb(), now);
}

export type StoredText = { table: string; column: string; value: string };

/** Every text (and blob, as latin1) value of every row of every table, read through sqlite_master. */
export function everyStoredText(): StoredText[] {
  const client = getDb().$client;
  const tables = client.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[];
  const found: StoredText[] = [];
  for (const { name } of tables) {
    const rows = client.prepare(`select * from "${name.replace(/"/g, '""')}"`).all() as Record<string, unknown>[];
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value === "string") found.push({ table: name, column, value });
        else if (Buffer.isBuffer(value)) found.push({ table: name, column, value: value.toString("latin1") });
      }
    }
  }
  return found;
}

/** The bytes of the database file and its WAL, as latin1 text (free pages included). */
export function databaseFileText(): string {
  const file = getEnv().DATABASE_PATH;
  return [file, `${file}-wal`]
    .filter((f) => fs.existsSync(f))
    .map((f) => fs.readFileSync(f).toString("latin1"))
    .join("\n");
}

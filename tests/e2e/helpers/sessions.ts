import { createHash, randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import type { BrowserContext } from "@playwright/test";
import { createCookieSessionStorage } from "react-router";
import { BASE_URL } from "./origin";
import { E2E_SESSION_SECRET } from "./secrets";

/**
 * Minted sessions (DESIGN.md §6, the way Epic Stack's tests start theirs): for
 * every spec whose subject is not signing in, the fixture writes a session row
 * straight into the server's database and signs its cookie with the server's
 * secret, as app/modules/auth/session.server.ts does after a sign-in. No
 * password hash, no two-factor code: a spec that needs an admin's session no
 * longer waits for the next 30-second TOTP step. The sign-in specs (login,
 * two-factor, accounts, register-confirm) still go through the pages and the
 * JSON sign-in.
 */

const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** The e2e server's database (playwright.config.ts puts it in E2E_RUN_DIR). */
export function e2eDatabasePath(): string {
  const dir = process.env.E2E_RUN_DIR;
  if (!dir) throw new Error("E2E_RUN_DIR is not set (run through playwright.config.ts)");
  return path.join(dir, "e2e.sqlite");
}

/** Put a session cookie ("lr_session=…") into a browser context, for `baseURL`. */
export async function useSessionCookie(context: BrowserContext, baseURL: string, cookie: string) {
  const eq = cookie.indexOf("=");
  await context.addCookies([{ name: cookie.slice(0, eq), value: cookie.slice(eq + 1), url: baseURL }]);
}

type Server = { baseURL: string; database: string; secret: string };

/** The run's server, then the isolated servers this worker started (helpers/document-ui.ts). */
const isolated = new Map<string, Server>();

/** Let minted sessions find accounts on an isolated server (until it stops). */
export function registerIsolatedServer(server: Server): () => void {
  isolated.set(server.baseURL, server);
  return () => {
    isolated.delete(server.baseURL);
    connections.get(server.database)?.close();
    connections.delete(server.database);
  };
}

const connections = new Map<string, Database.Database>();

function connection(file: string): Database.Database {
  let db = connections.get(file);
  if (!db) {
    db = new Database(file, { fileMustExist: true });
    db.pragma("busy_timeout = 5000");
    connections.set(file, db);
  }
  return db;
}

type Found = { server: Server; user: { id: string; isAdmin: number } };

/** The server whose database holds this e-mail (test addresses are unique to one server). */
function findAccount(email: string): Found {
  const servers = [{ baseURL: BASE_URL, database: e2eDatabasePath(), secret: E2E_SESSION_SECRET }, ...isolated.values()];
  for (const server of servers) {
    const user = connection(server.database).prepare("SELECT id, is_admin AS isAdmin FROM lp_users WHERE email = ?").get(email.trim().toLowerCase()) as
      | Found["user"]
      | undefined;
    if (user) return { server, user };
  }
  throw new Error(`no account ${email} on the run's server or this worker's isolated servers`);
}

/**
 * A signed-in session of the account with this e-mail, on whichever server
 * holds it: its Cookie pair ("lr_session=…") and that server's origin. The
 * guards then treat the session like any other (an investor still needs
 * approval, an admin two-factor).
 */
export async function mintSession(email: string): Promise<{ cookie: string; baseURL: string }> {
  const { server, user } = findAccount(email);
  const role = user.isAdmin ? "admin" : "investor";
  const token = randomBytes(32).toString("base64url");
  const at = Date.now();
  connection(server.database)
    .prepare(
      `INSERT INTO sessions (id, token_hash, user_id, role, stage, ip, user_agent, created_at, last_seen_at, expires_at)
       VALUES (?, ?, ?, ?, 'full', NULL, 'e2e minted session', ?, ?, ?)`,
    )
    .run(randomUUID(), createHash("sha256").update(token, "utf8").digest("hex"), user.id, role, at, at, at + SESSION_ABSOLUTE_MS);
  const storage = createCookieSessionStorage<{ token: string; role: string }>({
    cookie: { name: "lr_session", httpOnly: true, sameSite: "lax", path: "/", secrets: [server.secret] },
  });
  const session = await storage.getSession();
  session.set("token", token);
  session.set("role", role);
  return { cookie: (await storage.commitSession(session)).split(";")[0]!, baseURL: server.baseURL };
}

/** mintSession's Cookie pair alone, for a request's Cookie header. */
export async function mintSessionCookie(email: string): Promise<string> {
  return (await mintSession(email)).cookie;
}

/** A minted session in a browser context's cookie jar (for the server that holds the account). */
export async function startMintedSession(context: BrowserContext, email: string): Promise<void> {
  const { cookie, baseURL } = await mintSession(email);
  await useSessionCookie(context, baseURL, cookie);
}

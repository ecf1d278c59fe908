import { and, eq, isNull } from "drizzle-orm";
import { getDb, type Db } from "~/modules/db/connection.server";
import { lpUsers, passwordResets, registrationRequests, userTwoFactor } from "../../../db/schema";
import { audit } from "../audit/audit.server";
import { endAllSessions } from "../auth/session.server";
import { now } from "../config/clock.server";
import { clearRecoveryCodes } from "../two-factor/recovery-codes.server";
import { enrolWithSecret, hasTwoFactor } from "../two-factor/two-factor.server";
import { hashPassword } from "./password.server";
import type { AdminCreateInput, AdminPromoteInput } from "./schema";

/**
 * The first admin, and every other one, from the server's command line
 * (`npm run admin:create`, decision 029). Creating and promoting are two
 * operations on purpose: anyone can register an address through the public
 * registration, so an address that already has an account is never made an
 * admin as a side effect of creating one. Promoting is asked for by name
 * (`--promote`), shows who registered the account, and takes everything that
 * registrant set away: the password (the operator's replaces it), every
 * session, two-factor and its recovery codes, and open password reset links.
 * The operator vouches for the address: a new account is confirmed at once, and
 * a registration of the address still waiting for its confirmation is dropped
 * (decision 028).
 */

/** An account as the operator is shown it before deciding (who registered it, when, and its state). */
export type RegisteredAccount = {
  id: string;
  email: string;
  name: string;
  company: string | null;
  status: "pending" | "approved" | "rejected";
  isAdmin: boolean;
  createdAt: Date;
  twoFactor: boolean;
};

/** admin:create on an address that has an account (without --promote), or --promote on one that has none. */
export class AdminAccountError extends Error {
  constructor(
    readonly reason: "exists" | "missing",
    readonly account: RegisteredAccount | null,
  ) {
    super(reason === "exists" ? "an account with this e-mail already exists" : "no account with this e-mail");
    this.name = "AdminAccountError";
  }
}

/** The account registered with this e-mail (lower case, as stored), or null. */
export function findRegisteredAccount(email: string, db: Db = getDb()): RegisteredAccount | null {
  const user = db.select().from(lpUsers).where(eq(lpUsers.email, email)).get();
  if (!user) return null;
  const { id, name, company, status, isAdmin, createdAt } = user;
  return { id, email: user.email, name, company, status, isAdmin, createdAt, twoFactor: hasTwoFactor(id, db) };
}

/**
 * A new approved admin with the operator's password. With `totpSecret`,
 * two-factor is on with that secret (pre-enrolment for provisioning and
 * tests); without it the admin sets it up at the first sign-in. Throws
 * AdminAccountError("exists") when the address has an account: promoting it
 * is promoteToAdmin, asked for explicitly.
 */
export async function createAdminAccount(input: AdminCreateInput, db: Db = getDb()): Promise<{ id: string }> {
  const existing = findRegisteredAccount(input.email, db);
  if (existing) throw new AdminAccountError("exists", existing);
  const passwordHash = await hashPassword(input.password);
  const row = db.transaction((tx) => {
    const inserted = tx
      .insert(lpUsers)
      .values({ email: input.email, name: input.name, passwordHash, isAdmin: true, status: "approved", confirmedAt: now() })
      .onConflictDoNothing({ target: lpUsers.email })
      .returning({ id: lpUsers.id })
      .get();
    if (!inserted) return null; // registered between the check and now
    tx.delete(registrationRequests).where(eq(registrationRequests.email, input.email)).run();
    if (input.totpSecret) enrolWithSecret(inserted.id, input.totpSecret, tx);
    return inserted;
  });
  if (!row) throw new AdminAccountError("exists", findRegisteredAccount(input.email, db));
  return { id: row.id };
}

export type Promotion = {
  /** The account as it was before: who registered it, when, and its state then. */
  before: RegisteredAccount;
  sessionsEnded: number;
};

/**
 * Make an existing account an approved admin that only the operator holds:
 * the operator's password replaces the registrant's, every session ends, open
 * reset links are spent, two-factor and recovery codes are cleared (the owner
 * sets it up again at the first sign-in) or, with `totpSecret`, replaced by
 * that secret; `--name` replaces the registered name when given. Audited as
 * `user.promoted_to_admin` (via the command line). One transaction after the
 * bcrypt hash. Throws AdminAccountError("missing") when there is no account.
 */
export async function promoteToAdmin(input: AdminPromoteInput, db: Db = getDb()): Promise<Promotion> {
  const before = findRegisteredAccount(input.email, db);
  if (!before) throw new AdminAccountError("missing", null);
  const passwordHash = await hashPassword(input.password);
  const sessionsEnded = db.transaction((tx) => {
    tx.update(lpUsers)
      .set({ passwordHash, isAdmin: true, status: "approved", ...(input.name ? { name: input.name } : {}) })
      .where(eq(lpUsers.id, before.id))
      .run();
    const ended = endAllSessions(before.id, tx);
    tx.update(passwordResets)
      .set({ usedAt: now() })
      .where(and(eq(passwordResets.userId, before.id), isNull(passwordResets.usedAt)))
      .run();
    tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, before.id)).run();
    clearRecoveryCodes(tx, before.id);
    if (input.totpSecret) enrolWithSecret(before.id, input.totpSecret, tx);
    audit(tx, "user.promoted_to_admin", {
      target: { type: "user", id: before.id, label: before.email },
      details: {
        userId: before.id,
        email: before.email,
        via: "command line",
        registeredName: before.name,
        registeredAt: before.createdAt.toISOString(),
        previousStatus: before.status,
        wasAdmin: before.isAdmin,
        hadTwoFactor: before.twoFactor,
        sessionsEnded: ended,
        twoFactor: input.totpSecret ? "set to the given secret" : "cleared",
      },
    });
    return ended;
  });
  return { before, sessionsEnded };
}

import { and, eq, ne } from "drizzle-orm";
import { z } from "~/modules/validation/z";
import { getDb, type Db } from "~/modules/db/connection.server";
import { lpUsers } from "../../../db/schema";
import { referenceCodeCopy } from "~/content/admin-workspace";
import { accountMessages } from "~/content/accounts";
import { audit } from "../audit/audit.server";
import { AppError } from "../http/app-error";
import { findUserById, type LpUser } from "./lp-users.server";
import { normalizeReferenceCode, REFERENCE_CODE_PATTERN } from "./reference-code";

/** The investors page form and PUT /api/auth/users/{id}/reference-code: a code, or empty (or null) to remove it. */
export const ReferenceCodeInput = z.object({
  referenceCode: z
    .string({ error: referenceCodeCopy.invalid })
    .max(200, referenceCodeCopy.invalid)
    .nullish()
    .transform((value) => normalizeReferenceCode(value ?? ""))
    .refine((code) => code === "" || REFERENCE_CODE_PATTERN.test(code), referenceCodeCopy.invalid)
    .transform((code) => (code === "" ? null : code)),
});
export type ReferenceCodeInput = z.output<typeof ReferenceCodeInput>;

/** Why a code cannot be given: it is another investor's (409, as a message of the form's field). */
function codeTaken(code: string, holderEmail: string): AppError {
  const message = referenceCodeCopy.taken(code, holderEmail);
  return new AppError("conflict", message, { fields: { referenceCode: [message] }, values: { referenceCode: code } });
}

/** The account that holds `code`, other than `userId`. */
function holderOf(db: Pick<Db, "select">, code: string, userId: string) {
  return db
    .select({ id: lpUsers.id, email: lpUsers.email })
    .from(lpUsers)
    .where(and(eq(lpUsers.referenceCode, code), ne(lpUsers.id, userId)))
    .get();
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "SQLITE_CONSTRAINT_UNIQUE";
}

/**
 * Give an investor a reference code, change it, or remove it (`code` null).
 * `code` is already normalized (ReferenceCodeInput: trimmed, upper case,
 * checked). A code another account holds is refused with 409 and a field
 * message naming that account; the check runs inside the transaction, and a
 * UNIQUE violation (another process won the race) answers the same. The
 * change and its audit row (`user.reference_code_set`) are written together;
 * setting the code an investor already has changes nothing.
 */
export function setReferenceCode(
  admin: LpUser,
  userId: string,
  code: string | null,
  db: Db = getDb(),
): { user: LpUser; previous: string | null; changed: boolean } {
  const target = findUserById(userId, db);
  if (!target) throw new AppError("not_found", accountMessages.userNotFound);
  if (target.isAdmin) throw new AppError("forbidden", referenceCodeCopy.adminAccount);
  const previous = target.referenceCode;
  if (previous === code) return { user: target, previous, changed: false };
  try {
    const user = db.transaction((tx) => {
      if (code) {
        const holder = holderOf(tx, code, userId);
        if (holder) throw codeTaken(code, holder.email);
      }
      const row = tx.update(lpUsers).set({ referenceCode: code }).where(eq(lpUsers.id, userId)).returning().get();
      if (!row) throw new AppError("not_found", accountMessages.userNotFound);
      audit(tx, "user.reference_code_set", {
        actor: { id: admin.id, email: admin.email },
        target: { type: "user", id: row.id, label: row.email },
        details: { actorId: admin.id, userId: row.id, email: row.email, from: previous, to: code },
      });
      return row;
    });
    return { user, previous, changed: true };
  } catch (error) {
    if (code && isUniqueViolation(error)) {
      const holder = holderOf(db, code, userId);
      if (holder) throw codeTaken(code, holder.email);
    }
    throw error;
  }
}

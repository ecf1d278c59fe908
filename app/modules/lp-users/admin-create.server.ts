import { eq } from "drizzle-orm";
import { getDb, type Db } from "../../../db/client";
import { lpUsers, registrationRequests } from "../../../db/schema";
import { now } from "../config/clock.server";
import { hashPassword } from "./password.server";
import type { AdminCreateInput } from "./schema";
import { enrolWithSecret } from "../two-factor/two-factor.server";

/**
 * Create an approved admin, or promote an existing user (keeping their
 * password) to an approved admin. With `totpSecret`, two-factor is on with
 * that secret (pre-enrolment for provisioning and tests). The operator vouches
 * for the address: a new account is confirmed at once, and a registration of
 * the address still waiting for its confirmation is dropped (decision 028).
 */
export async function createOrPromoteAdmin(
  input: AdminCreateInput,
  db: Db = getDb(),
): Promise<{ id: string; created: boolean }> {
  const existing = db.select({ id: lpUsers.id }).from(lpUsers).where(eq(lpUsers.email, input.email)).get();
  if (existing) {
    db.transaction((tx) => {
      tx.update(lpUsers).set({ isAdmin: true, status: "approved" }).where(eq(lpUsers.id, existing.id)).run();
      if (input.totpSecret) enrolWithSecret(existing.id, input.totpSecret, tx);
    });
    return { id: existing.id, created: false };
  }
  const passwordHash = await hashPassword(input.password);
  const row = db.transaction((tx) => {
    const inserted = tx
      .insert(lpUsers)
      .values({ email: input.email, name: input.name, passwordHash, isAdmin: true, status: "approved", confirmedAt: now() })
      .returning({ id: lpUsers.id })
      .get();
    tx.delete(registrationRequests).where(eq(registrationRequests.email, input.email)).run();
    if (input.totpSecret) enrolWithSecret(inserted.id, input.totpSecret, tx);
    return inserted;
  });
  return { id: row.id, created: true };
}

import { eq } from "drizzle-orm";
import { getDb, type Db } from "../../../db/client";
import { lpUsers } from "../../../db/schema";
import { hashPassword } from "./password.server";
import type { AdminCreateInput } from "./schema";

/**
 * Create an approved admin, or promote an existing user (keeping their
 * password) to an approved admin.
 */
export async function createOrPromoteAdmin(
  input: AdminCreateInput,
  db: Db = getDb(),
): Promise<{ id: string; created: boolean }> {
  const existing = db.select({ id: lpUsers.id }).from(lpUsers).where(eq(lpUsers.email, input.email)).get();
  if (existing) {
    db.update(lpUsers).set({ isAdmin: true, status: "approved" }).where(eq(lpUsers.id, existing.id)).run();
    return { id: existing.id, created: false };
  }
  const passwordHash = await hashPassword(input.password);
  const row = db
    .insert(lpUsers)
    .values({ email: input.email, name: input.name, passwordHash, isAdmin: true, status: "approved" })
    .returning({ id: lpUsers.id })
    .get();
  return { id: row.id, created: true };
}

import bcrypt from "bcrypt";

/** bcrypt cost factor (DESIGN.md §4: at least 12). */
export const BCRYPT_COST = 12;

// Native bcrypt (decision 014): the hash runs on libuv's thread pool, so a
// sign-in never holds the event loop that every other request needs.
export async function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

import bcrypt from "bcrypt";
import { getEnv } from "../config/env.server";

/** bcrypt cost factor (DESIGN.md §4: at least 12). */
export const BCRYPT_COST = 12;

/** The cost new hashes get: BCRYPT_COST, or TEST_BCRYPT_COST on a test server (loopback APP_URL only, decision 036). */
export function passwordCost(): number {
  return getEnv().TEST_BCRYPT_COST ?? BCRYPT_COST;
}

// Native bcrypt (decision 014): the hash runs on libuv's thread pool, so a
// sign-in never holds the event loop that every other request needs.
export async function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, passwordCost());
}

/** The cost a compare takes is the one written in the stored hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

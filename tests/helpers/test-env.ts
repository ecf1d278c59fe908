import { resetEnvForTests } from "../../app/modules/config/env.server";

/** The environment every test file runs with (set in tests/setup.ts). */
export const TEST_SESSION_SECRET = "test-session-secret-0123456789abcdef-0123456789";
export const TEST_FIRM_INBOX = "inbox@lumenridge.example";
export const TEST_CLIENT_ADDRESS = "203.0.113.7";
/**
 * New password hashes in tests are bcrypt cost 4 (TEST_BCRYPT_COST, decision 036): the suite
 * creates hundreds of accounts. Tests of the production cost or of bcrypt's time use
 * atProductionPasswordCost.
 */
export const TEST_BCRYPT_COST = "4";

/** Run `fn` with the production password cost (12): TEST_BCRYPT_COST unset, put back afterwards. */
export async function atProductionPasswordCost<T>(fn: () => Promise<T>): Promise<T> {
  const saved = process.env.TEST_BCRYPT_COST;
  delete process.env.TEST_BCRYPT_COST;
  resetEnvForTests();
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.TEST_BCRYPT_COST;
    else process.env.TEST_BCRYPT_COST = saved;
    resetEnvForTests();
  }
}

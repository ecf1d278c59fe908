/** The session secrets of the e2e servers (the run's and the isolated ones). */
export const E2E_SESSION_SECRET = "e2e-session-secret-0123456789abcdef-0123456789";
export const E2E_ISOLATED_SESSION_SECRET = "e2e-isolated-session-secret-0123456789abcdef";
/**
 * TOTP_KEYS of every e2e server: the key two-factor secrets are sealed with, so
 * the test workers can enrol an admin on any of them (helpers/accounts.ts).
 */
export const E2E_TOTP_KEYS = "e2e-totp-key-0123456789abcdef-0123456789abcdef";
/**
 * TEST_BCRYPT_COST of every e2e server and of the workers' createAdmin (decision 036): new
 * password hashes at cost 4, since the suite creates hundreds of accounts.
 */
export const E2E_BCRYPT_COST = "4";

/** The session secrets of the e2e servers (the run's and the isolated ones). */
export const E2E_SESSION_SECRET = "e2e-session-secret-0123456789abcdef-0123456789";
export const E2E_ISOLATED_SESSION_SECRET = "e2e-isolated-session-secret-0123456789abcdef";
/**
 * TOTP_KEYS of every e2e server: the key two-factor secrets are sealed with, so
 * the test workers can enrol an admin on any of them (helpers/accounts.ts).
 */
export const E2E_TOTP_KEYS = "e2e-totp-key-0123456789abcdef-0123456789abcdef";

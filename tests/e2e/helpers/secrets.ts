/**
 * The session secrets of the e2e servers. Two-factor secrets are sealed with a
 * key from it (TOTP_KEYS unset), so the admin:create runs of a test must use
 * the same one as the server they enrol an admin for.
 */
export const E2E_SESSION_SECRET = "e2e-session-secret-0123456789abcdef-0123456789";
export const E2E_ISOLATED_SESSION_SECRET = "e2e-isolated-session-secret-0123456789abcdef";

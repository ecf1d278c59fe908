/** The environment every test file runs with (set in tests/setup.ts). */
export const TEST_SESSION_SECRET = "test-session-secret-0123456789abcdef-0123456789";
export const TEST_FIRM_INBOX = "inbox@lumenridge.example";
export const TEST_CLIENT_ADDRESS = "203.0.113.7";

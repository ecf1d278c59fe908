/** Account rules shared by the server schemas and the forms (kept free of zod, so pages stay light); their messages are in content/validation.ts. */
export const PASSWORD_MIN = 8;
/** bcrypt reads at most 72 bytes; longer passwords are refused, never silently truncated. */
export const PASSWORD_MAX_BYTES = 72;


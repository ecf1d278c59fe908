/**
 * The newsletter's mailed-link pages (zod-free: their route modules import
 * these in the browser, which must not load the validation library for a
 * path; decision 032).
 */

/** The confirmation link's page (GET: one button; POST: confirms). The token goes in `?token=`, which request logs mask. */
export const CONFIRM_PATH = "/newsletter/confirm";
/** A subscriber's signed unsubscribe link (GET: one button; POST and RFC 8058 one-click: unsubscribes). */
export const NEWSLETTER_UNSUBSCRIBE_PATH = "/unsubscribe/newsletter";

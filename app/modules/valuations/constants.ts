/** The largest valuations body, JSON or CSV (issue 24 §9: 8 MB on the import paths, 64 KB elsewhere; server/app.ts). */
export const VALUATIONS_BODY_BYTES = 8 * 1024 * 1024;

/**
 * The import page's form posts (/admin/funds/{slug}/valuations): the file, or
 * the previewed text sent back to confirm, with a few fields and the
 * multipart framing. Above the file limit, so a file a little over 8 MB gets
 * the page's own message rather than the server's bare 413.
 */
export const VALUATIONS_FORM_BYTES = VALUATIONS_BODY_BYTES + 1024 * 1024;

/**
 * The valuations import page of a fund, and its single-fetch twin (`….data`,
 * where a form posts once React runs): server/app.ts gives their posts
 * VALUATIONS_FORM_BYTES.
 */
export const VALUATIONS_PAGE_PATH = /^\/admin\/funds\/[^/]+\/valuations(?:\.data)?$/;

/** The valuations import page's forms (the upload and the confirm: a `step` field tells them apart). */
export const VALUATIONS_INTENT = "valuations";

/** The largest valuations body, JSON or CSV (issue 24 §9: 8 MB on the import paths, 64 KB elsewhere; server/app.ts). */
export const VALUATIONS_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Every route that changes state, and every page and endpoint that reads, as
 * the hardening sections see them (keep in step with app/routes.ts).
 * `role` is who may use it; `kind` is the body it takes.
 */
import { publicPages } from "../app/content/sitemap";
import { ACCOUNT_INTENTS } from "../app/modules/auth/account-form";

export type Role = "anonymous" | "investor" | "admin";
/** `csv`: a `text/csv` body (the P&L import's JSON route; it also takes a multipart form's file field `file`). */
export type BodyKind = "json" | "form" | "multipart" | "csv" | "none";

export type Mutation = {
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  /**
   * Path with `{id}` where an id goes (fill it with a real one or a made-up
   * one), `{userId}` where a second one goes (an entity member's account id),
   * `{batchId}` where a bulk upload batch's id goes (32 hex digits, not a
   * document id), `{token}` where a mailed link's token goes (in the query)
   * and `{slug}` where a fund's slug goes (fund-i: the fixtures' commitments are there).
   */
  path: string;
  kind: BodyKind;
  role: Role;
  /** Form actions carry an `intent` field to pick the operation. */
  intents?: readonly string[];
  note?: string;
};

/** The ledger forms' intents: a line more, the first line less (remove-line-{n}), the preview (the default). */
export const LEDGER_FORM_INTENTS = ["add-line", "remove-line-0", "preview"] as const;

export const MUTATIONS: readonly Mutation[] = [
  // JSON API (SPEC.md §7)
  { method: "POST", path: "/api/newsletter", kind: "json", role: "anonymous" },
  { method: "POST", path: "/api/pitch", kind: "json", role: "anonymous" },
  { method: "POST", path: "/api/pitch", kind: "multipart", role: "anonymous", note: "with the optional PDF deck (field deck)" },
  { method: "POST", path: "/api/auth/register", kind: "json", role: "anonymous" },
  { method: "POST", path: "/api/auth/login", kind: "json", role: "anonymous" },
  { method: "POST", path: "/api/auth/logout", kind: "none", role: "anonymous" },
  { method: "PATCH", path: "/api/auth/users/{id}/status", kind: "json", role: "admin" },
  { method: "PUT", path: "/api/auth/users/{id}/reference-code", kind: "json", role: "admin" },
  { method: "POST", path: "/api/documents", kind: "multipart", role: "admin" },
  // Before the DELETE: sweeps that answer each mutation in turn act on the same document.
  { method: "PATCH", path: "/api/documents/{id}", kind: "json", role: "admin", note: "audience and watermark" },
  { method: "DELETE", path: "/api/documents/{id}", kind: "none", role: "admin" },
  { method: "POST", path: "/api/fund-access/register", kind: "json", role: "anonymous" },
  { method: "POST", path: "/api/fund-access/validate-token", kind: "json", role: "anonymous" },
  { method: "POST", path: "/api/fund-documents", kind: "multipart", role: "admin" },
  { method: "DELETE", path: "/api/fund-documents/{id}", kind: "none", role: "admin" },
  // The pitch inbox (issue 16).
  { method: "PATCH", path: "/api/pitches/{id}", kind: "json", role: "admin", note: "status and owner" },
  { method: "POST", path: "/api/pitches/{id}/replies", kind: "json", role: "admin", note: "mails the founder" },
  // Capital accounts (issue 24): entities and members, commitments, the ledger (calls and distributions), valuations.
  { method: "POST", path: "/api/entities", kind: "json", role: "admin", note: "with its first owner" },
  { method: "POST", path: "/api/entities/{id}/members", kind: "json", role: "admin" },
  { method: "DELETE", path: "/api/entities/{id}/members/{userId}", kind: "none", role: "admin", note: "a viewer (the last owner stays: 409)" },
  { method: "POST", path: "/api/commitments", kind: "json", role: "admin", note: "one per entity and fund" },
  { method: "PATCH", path: "/api/commitments/{id}", kind: "json", role: "admin", note: "a raise at a subsequent close" },
  { method: "POST", path: "/api/capital-calls", kind: "json", role: "admin", note: "a draft (or a correction of a published call)" },
  // A publish and a DELETE act on drafts of their own; the payments on a published call.
  { method: "POST", path: "/api/capital-calls/{id}/publish", kind: "none", role: "admin", note: "numbers it, mails every member; again: a 200 that changes nothing" },
  { method: "DELETE", path: "/api/capital-calls/{id}", kind: "none", role: "admin", note: "a draft (a published call: 409)" },
  { method: "POST", path: "/api/capital-calls/{id}/payments", kind: "json", role: "admin" },
  { method: "POST", path: "/api/distributions", kind: "json", role: "admin" },
  { method: "POST", path: "/api/distributions/{id}/publish", kind: "none", role: "admin" },
  { method: "DELETE", path: "/api/distributions/{id}", kind: "none", role: "admin" },
  { method: "POST", path: "/api/valuations", kind: "json", role: "admin", note: "8 MB body limit" },
  // Quarterly statements (issue 25): a quarter's P&L CSV (the fund in the query; 8 MB) previewed (200, nothing written)
  // or written with commit=1 (201; 422 when a row does not tie), and publishing a quarter (202 and a PDF job).
  { method: "POST", path: "/api/statements/import?fund={slug}", kind: "csv", role: "admin", note: "the preview (text/csv or multipart file)" },
  { method: "POST", path: "/api/statements/import?fund={slug}&commit=1", kind: "csv", role: "admin", note: "all or nothing; 409 in a published quarter" },
  { method: "POST", path: "/api/statements/publish", kind: "json", role: "admin", note: "{ fund, quarter } → 202 { jobId }; 409 when published, 422 when it does not tie" },
  // Page form actions (work without JavaScript)
  { method: "POST", path: "/newsletter", kind: "form", role: "anonymous" },
  { method: "POST", path: "/process", kind: "form", role: "anonymous", note: "founder pitch form" },
  { method: "POST", path: "/process", kind: "multipart", role: "anonymous", note: "founder pitch form with its deck (field deck)" },
  // The mailed links (no sign-in; the token in the query). The unsubscribe links take the RFC 8058 one-click body.
  { method: "POST", path: "/unsubscribe/documents?token={token}", kind: "form", role: "anonymous", note: "List-Unsubscribe=One-Click" },
  { method: "POST", path: "/unsubscribe/newsletter?token={token}", kind: "form", role: "anonymous", note: "List-Unsubscribe=One-Click" },
  { method: "POST", path: "/newsletter/confirm?token={token}", kind: "form", role: "anonymous", note: "the double opt-in's confirmation" },
  { method: "POST", path: "/lp/register/confirm?token={token}", kind: "form", role: "anonymous", note: "a registration's confirmation, with its password" },
  { method: "POST", path: "/lp/register/confirm", kind: "form", role: "anonymous", intents: ["resend"], note: "'Send the link again' from the sign-in page" },
  { method: "POST", path: "/login", kind: "form", role: "anonymous" },
  { method: "POST", path: "/lp/login", kind: "form", role: "anonymous" },
  { method: "POST", path: "/admin/login", kind: "form", role: "anonymous" },
  { method: "POST", path: "/lp/register", kind: "form", role: "anonymous" },
  { method: "POST", path: "/lp/forgot-password", kind: "form", role: "anonymous" },
  { method: "POST", path: "/lp/reset-password", kind: "form", role: "anonymous" },
  { method: "POST", path: "/fund-i/signup", kind: "form", role: "anonymous" },
  { method: "POST", path: "/fund-ii/signup", kind: "form", role: "anonymous" },
  { method: "POST", path: "/theme", kind: "form", role: "anonymous" },
  { method: "POST", path: "/logout", kind: "form", role: "anonymous" },
  { method: "POST", path: "/admin/dashboard", kind: "form", role: "admin", intents: ["status"] },
  { method: "POST", path: "/admin/investors", kind: "form", role: "admin", intents: ["status", "set-reference-code"] },
  { method: "POST", path: "/admin/documents", kind: "form", role: "admin", intents: ["delete-document"] },
  { method: "POST", path: "/admin/documents/{id}/access", kind: "form", role: "admin", intents: ["set-audience", "remind-unopened"] },
  { method: "POST", path: "/admin/pitches/{id}", kind: "form", role: "admin", intents: ["status", "owner", "note", "reply"] },
  {
    method: "POST",
    path: "/admin/fund-access",
    kind: "form",
    role: "admin",
    intents: ["revoke-fund-access", "resend-fund-access-link", "delete-fund-document"],
  },
  { method: "POST", path: "/admin/documents", kind: "multipart", role: "admin" },
  { method: "POST", path: "/admin/fund-documents", kind: "multipart", role: "admin" },
  // The bulk per-investor upload (files in field "files"), then its staged batch's publish or cancel.
  { method: "POST", path: "/admin/documents/bulk", kind: "multipart", role: "admin" },
  { method: "POST", path: "/admin/documents/bulk/{batchId}", kind: "form", role: "admin", intents: ["publish", "cancel"] },
  // The Entities pages of the Funds group (routes/admin/entity-actions.server.ts): a person named by e-mail.
  { method: "POST", path: "/admin/entities", kind: "form", role: "admin", intents: ["create-entity"] },
  { method: "POST", path: "/admin/entities/{id}", kind: "form", role: "admin", intents: ["add-member", "remove-member", "add-commitment", "raise-commitment"] },
  // The ledger pages (routes/admin/ledger-actions.server.ts): a new call or distribution, a draft's change (lines.{n}.type /
  // amount / description / recallable; "Add a line" and a line's "Remove" answer the form again, preview drafts it; no
  // intent is a preview), and an entry's page (publish and delete a draft of their own; a payment to a published call).
  ...["/admin/funds/{slug}/calls/new", "/admin/funds/{slug}/distributions/new", "/admin/ledger/{id}/change"].map(
    (path): Mutation => ({ method: "POST", path, kind: "form", role: "admin", intents: LEDGER_FORM_INTENTS, ...(path.endsWith("/change") ? { note: "a draft's (a published entry's: 303 to its page)" } : {}) }),
  ),
  { method: "POST", path: "/admin/ledger/{id}", kind: "form", role: "admin", intents: ["publish", "delete-draft", "record-payment"] },
  // A fund's operations: the valuations CSV import (step=preview: a file; step=confirm: the previewed text in field csv,
  // `expected` rows; 8 MB + 1 MB body limit) and the payment instructions (bank details and a fresh two-factor code).
  { method: "POST", path: "/admin/funds/{slug}/valuations", kind: "multipart", role: "admin", intents: ["valuations"], note: "step=preview (file) or step=confirm (csv)" },
  { method: "POST", path: "/admin/funds/{slug}/payment-instructions", kind: "form", role: "admin", intents: ["payment-instructions"], note: "needs a fresh two-factor code" },
  // A fund's statements page (issue 25 §1–2): the P&L import as the valuations import (step=preview: a file; step=confirm:
  // the previewed text in field csv, `expected` rows), a quarter's row menu (publish, restate: field quarter) and the
  // firm's watermark setting (a checkbox), each a plain form.
  { method: "POST", path: "/admin/funds/{slug}/statements", kind: "multipart", role: "admin", intents: ["statements-import"], note: "step=preview (file) or step=confirm (csv)" },
  { method: "POST", path: "/admin/funds/{slug}/statements", kind: "form", role: "admin", intents: ["publish-quarter", "restate-quarter", "statements-watermark"] },
  // A fund's history import (issue 25 §5): the upload (multipart: file history, optional file pnl; 32 MB together, an
  // upload's timeout; the pair waits in incoming/ for an hour) and its confirm (a plain form: upload, hash, signature, names).
  { method: "POST", path: "/admin/funds/{slug}/import", kind: "multipart", role: "admin", intents: ["history-import"], note: "step=preview: the files" },
  { method: "POST", path: "/admin/funds/{slug}/import", kind: "form", role: "admin", intents: ["history-import"], note: "step=confirm: the staged pair's name and hash" },
];

/**
 * One name per mutation and intent ("POST /admin/investors status"); a
 * multipart entry beside a form or JSON one of the same route (and intent) is
 * told apart ("POST /process (multipart)", "POST /admin/funds/{slug}/import
 * history-import (multipart)").
 */
export function mutationKey(m: Mutation, intent?: string | null): string {
  const sameIntent = (o: Mutation) => (!o.intents && !m.intents) || (!!intent && !!o.intents?.includes(intent));
  const twin = m.kind === "multipart" && MUTATIONS.some((o) => o !== m && o.method === m.method && o.path === m.path && sameIntent(o));
  return `${m.method} ${m.path}${intent ? ` ${intent}` : ""}${twin ? " (multipart)" : ""}`;
}

/**
 * The signed-in account's own forms (two-factor on/off, recovery codes,
 * password, sessions) and the code step of a two-factor sign-in. Kept out of
 * MUTATIONS: their right-role answers depend on the account's two-factor
 * state and a code of the moment, and fuzzing them as the fixture admin would
 * spend its two-factor attempts (a wrong code counts against the account) and
 * end its sessions. The csrf section sends them cross-site; the two-factor
 * section sends them with every kind of session that must not open them.
 */
export const ACCOUNT_MUTATIONS: readonly Mutation[] = [
  { method: "POST", path: "/login/two-factor", kind: "form", role: "anonymous", note: "the code step: opens only with a live challenge" },
  { method: "POST", path: "/lp/account", kind: "form", role: "investor", intents: ACCOUNT_INTENTS },
  { method: "POST", path: "/admin/account", kind: "form", role: "admin", intents: ACCOUNT_INTENTS },
];

/** Pages and read endpoints (GET). `{id}` / `{key}` as above. */
export const READS: ReadonlyArray<{ path: string; role: Role; note?: string }> = [
  ...[
    ...publicPages,
    "/newsletter",
    "/lp/login",
    "/lp/register",
    "/lp/register/confirm?confirmed=1",
    "/lp/forgot-password",
    "/lp/reset-password",
    "/admin/login",
    "/login/two-factor",
    "/fund-i/signup",
    "/fund-ii/signup",
    "/fund-i/documents",
    "/fund-ii/documents",
    "/sitemap.xml",
    "/robots.txt",
  ].map((path) => ({ path, role: "anonymous" as const })),
  { path: "/lp/dashboard", role: "investor" },
  { path: "/lp/account", role: "investor" },
  { path: "/admin/dashboard", role: "admin" },
  { path: "/admin/investors", role: "admin" },
  { path: "/admin/documents", role: "admin" },
  { path: "/admin/fund-access", role: "admin" },
  { path: "/admin/email-lists", role: "admin" },
  { path: "/admin/documents/{id}/access", role: "admin" },
  { path: "/admin/documents/bulk", role: "admin", note: "the bulk upload form (a staged batch's page needs a batch: see the matrix)" },
  { path: "/admin/email-lists/newsletter.csv", role: "admin" },
  { path: "/admin/activity", role: "admin" },
  { path: "/admin/activity.csv", role: "admin" },
  { path: "/admin/pitches", role: "admin" },
  { path: "/admin/pitches.csv", role: "admin" },
  { path: "/admin/account", role: "admin", note: "also the only page of an admin without two-factor" },
  { path: "/api/auth/user", role: "investor" },
  { path: "/api/auth/pending-users", role: "admin" },
  { path: "/api/auth/approved-users", role: "admin" },
  { path: "/api/auth/rejected-users", role: "admin" },
  { path: "/api/documents", role: "investor" },
  { path: "/api/documents/{id}/view", role: "investor" },
  { path: "/api/documents/{id}/download", role: "investor" },
  { path: "/api/funds", role: "investor" },
  { path: "/api/entities", role: "investor", note: "an investor lists only the entities they are a member of" },
  { path: "/api/lp/capital-account", role: "investor", note: "the caller's entities only" },
  { path: "/api/commitments/{id}", role: "admin" },
  { path: "/api/capital-calls/{id}", role: "admin" },
  { path: "/api/distributions/{id}", role: "admin" },
  { path: "/admin/funds", role: "admin" },
  { path: "/admin/funds/fund-i", role: "admin", note: "a fund's page, by slug" },
  { path: "/admin/entities", role: "admin" },
  { path: "/admin/entities/{id}", role: "admin" },
  { path: "/admin/funds/fund-i/calls/new", role: "admin" },
  { path: "/admin/funds/fund-i/distributions/new", role: "admin" },
  { path: "/admin/funds/fund-i/valuations", role: "admin", note: "the CSV import's upload form" },
  { path: "/admin/funds/fund-i/payment-instructions", role: "admin" },
  { path: "/admin/funds/fund-i/statements", role: "admin", note: "the P&L import, the quarters (publish, restate) and the watermark setting" },
  { path: "/admin/funds/fund-i/import", role: "admin", note: "the history import's upload form" },
  { path: "/api/statements/jobs/{id}", role: "admin", note: "a PDF job's progress (a published quarter's)" },
  { path: "/admin/ledger/{id}", role: "admin", note: "a published call's page (payments per entity)" },
  { path: "/admin/ledger/{id}/change", role: "admin", note: "a draft's form (a published entry's: 303 to its page)" },
  { path: "/lp/capital-account", role: "investor" },
  { path: "/lp/capital-account/ledger", role: "investor", note: "?entity= and ?fund= filter: the caller's entities only (else the unknown id's 404)" },
  { path: "/lp/capital-account/ledger.csv", role: "investor", note: "the same filters; formula-safe cells" },
  { path: "/lp/notices/{id}", role: "investor", note: "a published entry's notice: only a member of an entity it concerns reads it (an admin is none)" },
  { path: "/lp/statements", role: "investor", note: "the caller's entities' statements, the latest version of each" },
  { path: "/lp/statements/{id}", role: "investor", note: "a member of its entity (or an admin) reads it; another's is the unknown id's 404" },
  { path: "/api/lp/statements", role: "investor", note: "the caller's entities only" },
  { path: "/api/fund-access/requests", role: "admin" },
  { path: "/api/fund-documents/{key}", role: "admin", note: "fund list by key (fund-i / fund-ii)" },
  { path: "/api/fund-documents/view/{id}", role: "admin" },
  { path: "/api/fund-documents/download/{id}", role: "admin" },
  { path: "/api/newsletter/subscribers", role: "admin" },
  { path: "/api/pitches", role: "admin" },
];

import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  // Public site, under one frame (banner, header, footer).
  layout("routes/site/layout.tsx", [
    index("routes/site/home.tsx"),
    route("investment-focus", "routes/site/investment-focus.tsx"),
    route("portfolio", "routes/site/portfolio.tsx"),
    route("deeptech-fund", "routes/site/deeptech-fund.tsx"),
    route("fund-i", "routes/site/fund-detail.tsx", { id: "fund-i" }),
    route("fund-ii", "routes/site/fund-detail.tsx", { id: "fund-ii" }),
    route("team", "routes/site/team.tsx"),
    route("process", "routes/site/process.tsx"),
    route("contact", "routes/site/contact.tsx"),
    route("login", "routes/site/login.tsx"),
    route("privacy-policy", "routes/site/privacy-policy.tsx"),
    route("terms-of-service", "routes/site/terms-of-service.tsx"),
    route("newsletter", "routes/site/newsletter.tsx"),
    // Investor account pages that need no sign-in.
    route("lp/login", "routes/lp/login.tsx"),
    route("lp/register", "routes/lp/register.tsx"),
    // A registration's confirmation link (GET: the password and one button; POST confirms) and 'Send the link again'.
    route("lp/register/confirm", "routes/lp/register-confirm.tsx"),
    route("lp/forgot-password", "routes/lp/forgot-password.tsx"),
    route("lp/reset-password", "routes/lp/reset-password.tsx"),
    // New-document e-mails' List-Unsubscribe link: the page (GET) and the RFC 8058 one-click POST; no sign-in.
    route("unsubscribe/documents", "routes/site/unsubscribe-documents.tsx"),
    // The newsletter's confirmation link (GET: one button; POST confirms) and its signed unsubscribe link (as above).
    route("newsletter/confirm", "routes/site/newsletter-confirm.tsx"),
    route("unsubscribe/newsletter", "routes/site/unsubscribe-newsletter.tsx"),
    route("admin/login", "routes/admin/login.tsx"),
    // The code step of a two-factor sign-in (both portals).
    route("login/two-factor", "routes/auth/two-factor.tsx"),
    // Fund access: sign-ups and the fund document pages (each gated on the server).
    route("fund-i/signup", "routes/funds/fund-i-signup.tsx"),
    route("fund-ii/signup", "routes/funds/fund-ii-signup.tsx"),
    route("fund-i/documents", "routes/funds/fund-i-documents.tsx"),
    route("fund-ii/documents", "routes/funds/fund-ii-documents.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),
  // Investor portal: the layout guards its whole subtree (approved investor or admin).
  layout("routes/lp/layout.tsx", [
    route("lp/dashboard", "routes/lp/dashboard.tsx"),
    route("lp/capital-account", "routes/lp/capital-account.tsx"),
    // The full ledger of the investor's entities, and its CSV export (resource route, guarded on its own).
    route("lp/capital-account/ledger", "routes/lp/capital-ledger.tsx"),
    route("lp/capital-account/ledger.csv", "routes/lp/capital-ledger-export.ts"),
    route("lp/notices/:id", "routes/lp/notice.tsx"),
    // The investor's quarterly statements (issue 25): the list and one statement's page (printable).
    route("lp/statements", "routes/lp/statements.tsx"),
    route("lp/statements/:id", "routes/lp/statement.tsx"),
    route("lp/account", "routes/lp/account.tsx"),
  ]),
  // Admin workspace: the layout guards its whole subtree (admins only) and holds the navigation.
  layout("routes/admin/layout.tsx", [
    route("admin/dashboard", "routes/admin/overview.tsx"),
    route("admin/investors", "routes/admin/investors.tsx"),
    // The pitch inbox: the list, its CSV export (resource route, guarded on its own) and a pitch's page.
    route("admin/pitches", "routes/admin/pitches.tsx"),
    route("admin/pitches.csv", "routes/admin/pitches-export.ts"),
    route("admin/pitches/:id", "routes/admin/pitch.tsx"),
    // Also the LP upload form's target without JavaScript (multipart).
    route("admin/documents", "routes/admin/documents.tsx"),
    route("admin/documents/upload", "routes/admin/documents-upload.tsx"),
    route("admin/documents/:id/access", "routes/admin/document-access.tsx"),
    // Bulk per-investor upload: the form (also its multipart target) and a staged batch's preview.
    route("admin/documents/bulk", "routes/admin/documents-bulk.tsx"),
    route("admin/documents/bulk/:batchId", "routes/admin/documents-bulk-batch.tsx"),
    route("admin/fund-access", "routes/admin/fund-access.tsx"),
    route("admin/funds", "routes/admin/funds.tsx"),
    route("admin/funds/:slug", "routes/admin/fund.tsx"),
    // A fund's valuations import (CSV, a preview, then all or nothing) and its payment instructions (a fresh two-factor code).
    route("admin/funds/:slug/valuations", "routes/admin/fund-valuations.tsx"),
    // A fund's quarterly statements (issue 25): the P&L import and its tie-out preview, publishing and restating, the watermark setting.
    route("admin/funds/:slug/statements", "routes/admin/fund-statements.tsx"),
    route("admin/funds/:slug/payment-instructions", "routes/admin/fund-payment-instructions.tsx"),
    // A fund's history (issue 25 §5): past calls, payments, distributions, valuations and P&L from CSV, previewed, then all or nothing, no mail.
    route("admin/funds/:slug/import", "routes/admin/fund-import.tsx"),
    // A call's or a distribution's form (one module, both kinds), and an entry's page (draft preview, publishing, payments) and a draft's change.
    route("admin/funds/:slug/calls/new", "routes/admin/ledger-new.tsx", { id: "admin-call-new" }),
    route("admin/funds/:slug/distributions/new", "routes/admin/ledger-new.tsx", { id: "admin-distribution-new" }),
    route("admin/ledger/:id", "routes/admin/ledger-entry.tsx"),
    route("admin/ledger/:id/change", "routes/admin/ledger-change.tsx"),
    route("admin/entities", "routes/admin/entities.tsx"),
    route("admin/entities/:id", "routes/admin/entity.tsx"),
    // The fund document upload form's target without JavaScript.
    route("admin/fund-documents", "routes/admin/fund-documents-upload.tsx"),
    route("admin/email-lists", "routes/admin/email-lists.tsx"),
    // E-mail list exports (resource route, guarded on its own): {list}.csv download, {list}.tsv for Copy All.
    route("admin/email-lists/:file", "routes/admin/email-list-export.ts"),
    // The audit trail, and its CSV export (resource route, guarded on its own).
    route("admin/activity", "routes/admin/activity.tsx"),
    route("admin/activity.csv", "routes/admin/activity-export.ts"),
    // A pitch's uploaded deck, inline (resource route, guarded on its own; each opening recorded).
    route("admin/pitches/:id/deck", "routes/admin/pitch-deck.ts"),
    // The signed-in admin's own sign-in security.
    route("admin/account", "routes/admin/account.tsx"),
  ]),
  // Ends the session (POST) and goes to /lp/login.
  route("logout", "routes/auth/logout.tsx"),
  // Form targets without a page of their own.
  route("theme", "routes/site/theme.tsx"),
  // JSON endpoints (SPEC.md §7).
  ...prefix("api", [
    route("newsletter", "routes/api/newsletter.ts"),
    route("pitch", "routes/api/pitch.ts"),
    route("auth/register", "routes/api/auth/register.ts"),
    route("auth/login", "routes/api/auth/login.ts"),
    route("auth/logout", "routes/api/auth/logout.ts"),
    route("auth/user", "routes/api/auth/user.ts"),
    route("auth/pending-users", "routes/api/auth/users-by-status.ts", { id: "api-pending-users" }),
    route("auth/approved-users", "routes/api/auth/users-by-status.ts", { id: "api-approved-users" }),
    route("auth/rejected-users", "routes/api/auth/users-by-status.ts", { id: "api-rejected-users" }),
    route("auth/users/:id/status", "routes/api/auth/user-status.ts"),
    route("auth/users/:id/reference-code", "routes/api/auth/user-reference-code.ts"),
    route("documents", "routes/api/documents.ts"),
    route("documents/:id", "routes/api/document.ts"),
    route("documents/:id/view", "routes/api/document-file.ts", { id: "api-document-view" }),
    route("documents/:id/download", "routes/api/document-file.ts", { id: "api-document-download" }),
    // The funds (approved investors and admins).
    route("funds", "routes/api/funds.ts"),
    route("entities", "routes/api/entities.ts"),
    route("entities/:id/members", "routes/api/entity-members.ts"),
    route("entities/:id/members/:userId", "routes/api/entity-member.ts"),
    route("commitments", "routes/api/commitments.ts"),
    route("commitments/:id", "routes/api/commitment.ts"),
    route("capital-calls", "routes/api/ledger-entries.ts", { id: "api-capital-calls" }),
    route("capital-calls/:id", "routes/api/ledger-entry.ts", { id: "api-capital-call" }),
    route("capital-calls/:id/publish", "routes/api/ledger-publish.ts", { id: "api-capital-call-publish" }),
    route("capital-calls/:id/payments", "routes/api/call-payments.ts"),
    route("distributions", "routes/api/ledger-entries.ts", { id: "api-distributions" }),
    route("distributions/:id", "routes/api/ledger-entry.ts", { id: "api-distribution" }),
    route("distributions/:id/publish", "routes/api/ledger-publish.ts", { id: "api-distribution-publish" }),
    route("valuations", "routes/api/valuations.ts"),
    route("statements/import", "routes/api/statements-import.ts"),
    route("lp/capital-account", "routes/api/lp-capital-account.ts"),
    route("statements/publish", "routes/api/statements-publish.ts"),
    route("statements/jobs/:jobId", "routes/api/statements-job.ts"),
    route("lp/statements", "routes/api/lp-statements.ts"),
    route("fund-access/register", "routes/api/fund-access/register.ts"),
    route("fund-access/validate-token", "routes/api/fund-access/validate-token.ts"),
    route("fund-access/requests", "routes/api/fund-access/requests.ts"),
    route("fund-documents", "routes/api/fund-documents/index.ts"),
    route("fund-documents/view/:id", "routes/api/fund-documents/file.ts", { id: "api-fund-document-view" }),
    route("fund-documents/download/:id", "routes/api/fund-documents/file.ts", { id: "api-fund-document-download" }),
    route("fund-documents/:key", "routes/api/fund-documents/by-key.ts"),
    route("newsletter/subscribers", "routes/api/newsletter-subscribers.ts"),
    // The pitch inbox (admin): the filtered list, a status / owner change, a reply.
    route("pitches", "routes/api/pitches/index.ts"),
    route("pitches/:id", "routes/api/pitches/pitch.ts"),
    route("pitches/:id/replies", "routes/api/pitches/replies.ts"),
    route("*", "routes/api/not-found.ts"),
  ]),
  // SEO.
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),
] satisfies RouteConfig;

import type { AdminGroupKey, AdminPageKey } from "~/content/admin-workspace";

/** A page of the admin workspace: where it lives, the sidebar group it sits in, and whether a count shows beside it. */
export type AdminSection = {
  page: AdminPageKey;
  path: string;
  /** null: above the groups (the overview). */
  group: AdminGroupKey | null;
  /** The page's badge counts what waits there (the layout's loader fills it: app/modules/admin/overview.server.ts). */
  badge?: true;
};

/**
 * The admin workspace's one route table: the sidebar (its groups and order), the
 * paths, the current-page match and the badges come from here; the admin layout
 * guards every page under it (admins with two-factor only). A new section is one
 * entry here plus its route modules (app/routes.ts).
 */
export const ADMIN_SECTIONS = [
  { page: "overview", path: "/admin/dashboard", group: null },
  { page: "investors", path: "/admin/investors", group: "people", badge: true },
  { page: "fund-access", path: "/admin/fund-access", group: "people", badge: true },
  { page: "funds", path: "/admin/funds", group: "funds" },
  { page: "entities", path: "/admin/entities", group: "funds" },
  { page: "documents", path: "/admin/documents", group: "documents" },
  { page: "pitches", path: "/admin/pitches", group: "deal-flow", badge: true },
  { page: "email-lists", path: "/admin/email-lists", group: "lists" },
  { page: "activity", path: "/admin/activity", group: "system" },
  { page: "account", path: "/admin/account", group: "system" },
] as const satisfies readonly AdminSection[];

/** The pages whose sidebar link shows a count. */
export type AdminBadgeKey = Extract<(typeof ADMIN_SECTIONS)[number], { badge: true }>["page"];

export const ADMIN_PATHS = Object.fromEntries(ADMIN_SECTIONS.map((section) => [section.page, section.path])) as {
  [S in (typeof ADMIN_SECTIONS)[number] as S["page"]]: S["path"];
};

/** A call's or a distribution's page (its fund's ledger: the Funds section). */
export const ledgerEntryPath = (id: string) => `/admin/ledger/${id}`;

/** Pages outside their section's path, and the section they belong to. */
const OTHER_PATHS: readonly { prefix: string; page: AdminPageKey }[] = [{ prefix: "/admin/ledger/", page: "funds" }];

/** The page a path belongs to (a document's access history belongs to Documents, a call's page to Funds). */
export function adminPageOf(pathname: string): AdminPageKey | null {
  const path = pathname.replace(/\/+$/, "");
  const other = OTHER_PATHS.find(({ prefix }) => path.startsWith(prefix));
  if (other) return other.page;
  return ADMIN_SECTIONS.find(({ path: page }) => path === page || path.startsWith(`${page}/`))?.page ?? null;
}

const EMAIL_LIST_PARAM = /^(lp-users|rejected-lp-users|fund-ii-requests|newsletter)\.(sort|dir|page)$/;

/**
 * The page that owns a query parameter of the former one-page dashboard
 * (`pending.page`, `confirm=delete-document`, `newsletter.sort`…), or null.
 */
export function legacyDashboardTarget(params: URLSearchParams): string | null {
  const confirm = params.get("confirm");
  if (confirm === "reject" || confirm === "revoke" || confirm === "approve") return ADMIN_PATHS.investors;
  if (confirm === "delete-document") return ADMIN_PATHS.documents;
  if (confirm === "revoke-fund-access" || confirm === "delete-fund-document") return ADMIN_PATHS["fund-access"];
  for (const name of params.keys()) {
    if (name === "pending.page" || name === "approved.page" || name === "rejected.page") return ADMIN_PATHS.investors;
    if (name === "requests.page") return ADMIN_PATHS["fund-access"];
    if (EMAIL_LIST_PARAM.test(name)) return ADMIN_PATHS["email-lists"];
  }
  return null;
}

/** The former one-page dashboard's section anchors, and where each section lives now. */
export const LEGACY_ANCHORS: Record<string, AdminPageKey> = {
  "lp-management": "investors",
  "pending-users": "investors",
  "approved-users": "investors",
  "rejected-users": "investors",
  "upload-document": "documents",
  "published-documents": "documents",
  "fund-management": "fund-access",
  "fund-access-requests": "fund-access",
  "upload-fund-document": "fund-access",
  "published-fund-ii-documents": "fund-access",
  "published-fund-i-documents": "fund-access",
  "email-lists": "email-lists",
  "email-list-lp-users": "email-lists",
  "email-list-rejected-lp-users": "email-lists",
  "email-list-fund-ii-requests": "email-lists",
  "email-list-newsletter": "email-lists",
};

/** Where an old `/admin/dashboard#anchor` link belongs now (the anchor kept), or null. */
export function legacyAnchorTarget(anchor: string): string | null {
  const page = Object.hasOwn(LEGACY_ANCHORS, anchor) ? LEGACY_ANCHORS[anchor] : undefined;
  return page && page !== "overview" ? `${ADMIN_PATHS[page]}#${anchor}` : null;
}

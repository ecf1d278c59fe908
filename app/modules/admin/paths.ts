import type { AdminPageKey } from "~/content/admin-workspace";

/** The admin workspace's pages, in the navigation's order. */
export const ADMIN_PAGES = ["overview", "investors", "pitches", "documents", "fund-access", "email-lists", "activity"] as const satisfies readonly AdminPageKey[];

export const ADMIN_PATHS = {
  overview: "/admin/dashboard",
  investors: "/admin/investors",
  pitches: "/admin/pitches",
  documents: "/admin/documents",
  "fund-access": "/admin/fund-access",
  "email-lists": "/admin/email-lists",
  activity: "/admin/activity",
} as const satisfies Record<AdminPageKey, string>;

/** The page a path belongs to (a document's access history belongs to Documents). */
export function adminPageOf(pathname: string): AdminPageKey | null {
  const path = pathname.replace(/\/+$/, "");
  return ADMIN_PAGES.find((page) => path === ADMIN_PATHS[page] || path.startsWith(`${ADMIN_PATHS[page]}/`)) ?? null;
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

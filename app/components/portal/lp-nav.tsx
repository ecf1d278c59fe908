import { lpNavCopy } from "~/content/portal";
import { WorkspaceNavLink } from "../layout/workspace-frame";

/**
 * The investor portal's pages, in the navigation's order; a section is current on its path, the
 * pages under it (the capital account's ledger) and the pages it lists elsewhere (its notices).
 */
const LP_SECTIONS: readonly { page: "home" | "capital" | "statements" | "account"; path: string; also?: readonly string[] }[] = [
  { page: "home", path: "/lp/dashboard" },
  { page: "capital", path: "/lp/capital-account", also: ["/lp/notices/"] },
  // The quarterly statements (issue 25): the list and each statement's page.
  { page: "statements", path: "/lp/statements" },
  { page: "account", path: "/lp/account" },
];

const isCurrent = (path: string, section: (typeof LP_SECTIONS)[number]) =>
  path === section.path || path.startsWith(`${section.path}/`) || (section.also ?? []).some((prefix) => path.startsWith(prefix));

/** The investor portal's navigation: plain links, the current page marked. */
export function LpNavLinks({ pathname }: { pathname: string }) {
  const path = pathname.replace(/\/+$/, "");
  return (
    <ul className="space-y-0.5">
      {LP_SECTIONS.map((section) => (
        <WorkspaceNavLink key={section.page} to={section.path} active={isCurrent(path, section)}>
          {lpNavCopy.pages[section.page]}
        </WorkspaceNavLink>
      ))}
    </ul>
  );
}

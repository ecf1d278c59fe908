import { lpNavCopy } from "~/content/portal";
import { WorkspaceNavLink } from "../layout/workspace-frame";

/** The investor portal's pages, in the navigation's order (capital accounts and statements will join them). */
const LP_SECTIONS = [
  { page: "home", path: "/lp/dashboard" },
  { page: "capital", path: "/lp/capital-account" },
  { page: "account", path: "/lp/account" },
] as const;

/** The investor portal's navigation: plain links, the current page marked. */
export function LpNavLinks({ pathname }: { pathname: string }) {
  const path = pathname.replace(/\/+$/, "");
  return (
    <ul className="space-y-0.5">
      {LP_SECTIONS.map((section) => (
        <WorkspaceNavLink key={section.page} to={section.path} active={path === section.path}>
          {lpNavCopy.pages[section.page]}
        </WorkspaceNavLink>
      ))}
    </ul>
  );
}

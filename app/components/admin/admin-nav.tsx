import { adminNavCopy, type AdminGroupKey, type AdminPageKey } from "~/content/admin-workspace";
import { ADMIN_SECTIONS, type AdminBadgeKey } from "~/modules/admin/paths";
import { WorkspaceNavLink } from "../layout/workspace-frame";

/** What waits on each page, shown as a count beside its link. */
export type AdminBadges = Partial<Record<AdminBadgeKey, number>>;

type Section = (typeof ADMIN_SECTIONS)[number];

function NavLink({ section, current, badges }: { section: Section; current: AdminPageKey | null; badges: AdminBadges }) {
  const counted = "badge" in section ? (section.page as AdminBadgeKey) : null;
  const count = counted ? (badges[counted] ?? 0) : 0;
  return (
    <WorkspaceNavLink
      to={section.path}
      active={section.page === current}
      extra={
        counted && count > 0 ? (
          <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white dark:bg-brand-300 dark:text-slate-950">
            <span aria-hidden="true" data-testid={`nav-badge-${counted}`}>
              {count.toLocaleString("en-US")}
            </span>
            <span className="sr-only">{`, ${adminNavCopy.badge[counted](count)}`}</span>
          </span>
        ) : null
      }
    >
      {adminNavCopy.pages[section.page]}
    </WorkspaceNavLink>
  );
}

/** The groups in the route table's order, each with its pages; the overview (no group) first. */
const GROUPS: Array<{ group: AdminGroupKey | null; sections: Section[] }> = [];
for (const section of ADMIN_SECTIONS) {
  const last = GROUPS.at(-1);
  if (last && last.group === section.group) last.sections.push(section);
  else GROUPS.push({ group: section.group, sections: [section] });
}

/**
 * The workspace's navigation, grouped by the firm's work (ADMIN_SECTIONS):
 * plain links (they work without JavaScript), the current page marked with
 * aria-current, each group a list under its name. The frame shows it twice (the
 * sidebar, the phone's menu): `idPrefix` keeps the group names' ids apart.
 */
export function AdminNavLinks({ current, badges, idPrefix }: { current: AdminPageKey | null; badges: AdminBadges; idPrefix: string }) {
  return (
    <div className="space-y-4">
      {GROUPS.map(({ group, sections }) => {
        const links = (
          <ul className="space-y-0.5">
            {sections.map((section) => (
              <NavLink key={section.page} section={section} current={current} badges={badges} />
            ))}
          </ul>
        );
        if (!group) return <div key="top">{links}</div>;
        const id = `${idPrefix}-${group}`;
        return (
          <div key={group} role="group" aria-labelledby={id}>
            <p id={id} className="px-3 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
              {adminNavCopy.groups[group]}
            </p>
            {links}
          </div>
        );
      })}
    </div>
  );
}

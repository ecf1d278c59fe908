import type { Route } from "./+types/email-lists";
import { AdminPageHeader, adminPageTitle } from "~/components/admin/page-header";
import type { EmailListData } from "~/components/email-lists/email-list-table";
import { EmailListsSection } from "~/components/email-lists/email-lists-section";
import { parseListViews } from "~/components/email-lists/params";
import { emailListsCopy } from "~/content/email-lists";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { LIST_KEYS, type ListKey } from "~/modules/email-lists/lists";
import { pageMeta } from "~/modules/seo/meta";
import { readEmailList } from "./lists.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: adminPageTitle("email-lists"), description: emailListsCopy.intro, path: ADMIN_PATHS["email-lists"], noindex: true });

/**
 * /admin/email-lists, 'Email Lists (Copy & Export)': the four tables, each
 * sorted and paged by its own parameters (`{list}.sort`, `{list}.dir`,
 * `{list}.page`). Copy All and CSV read /admin/email-lists/{list}.tsv|csv.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const views = parseListViews(new URL(request.url).searchParams);
  const lists = Object.fromEntries(LIST_KEYS.map((list) => [list, readEmailList(list, views)])) as Record<ListKey, EmailListData>;
  return { lists, views };
}

export default function EmailLists({ loaderData }: Route.ComponentProps) {
  return (
    <div id="email-lists">
      <AdminPageHeader page="email-lists" specName={emailListsCopy.section} />
      <EmailListsSection lists={loaderData.lists} views={loaderData.views} />
    </div>
  );
}

import { emailListsCopy } from "~/content/email-lists";
import { LIST_KEYS, type ListKey } from "~/modules/email-lists/lists";
import { EmailListTable, type EmailListData } from "./email-list-table";
import type { ListViews } from "./params";

/**
 * 'Email Lists (Copy & Export)' (SPEC.md §2): LP portal users, rejected LP
 * users, Fund II access requests and newsletter subscribers, each sorted
 * and paged on its own through the page's query (see ./params).
 */
export function EmailListsSection({ lists, views }: { lists: Record<ListKey, EmailListData>; views: ListViews }) {
  return (
    <>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{emailListsCopy.intro}</p>
      {LIST_KEYS.map((list) => (
        <EmailListTable key={list} list={list} data={lists[list]} views={views} />
      ))}
    </>
  );
}

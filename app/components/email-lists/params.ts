import { ADMIN_PATHS } from "~/modules/admin/paths";
import { DEFAULT_SORT, LIST_KEYS, parseNewsletterStatus, parseSort, type ListFilter, type ListKey, type SortState } from "~/modules/email-lists/lists";

/**
 * The e-mail tables' state in the page's URL (DESIGN.md §3: sorting and
 * paging are links with query parameters, read by the loader). Each table
 * has its own parameters, so the tables sort and page independently:
 * `{list}.sort` (a column), `{list}.dir` (asc | desc) and `{list}.page`
 * (1-based), e.g. `?newsletter.sort=email&newsletter.dir=asc#email-list-newsletter`.
 * The newsletter table also has `newsletter.status` (confirmed, pending,
 * unsubscribed; confirmed when absent), set by its GET filter form.
 */

export const EMAIL_LISTS_PATH = ADMIN_PATHS["email-lists"];
/** At most this many rows per table on a page, so the page does not grow with a list. */
export const EMAIL_LIST_PAGE_SIZE = 50;
/** Pages past this are read as this one (keeps the offset a sane number). */
const MAX_PAGE = 1_000_000;

export type ListView = { sort: SortState; page: number; filter?: ListFilter };
export type ListViews = Record<ListKey, ListView>;

export function emailListSectionId(list: ListKey): string {
  return `email-list-${list}`;
}

export function emailListParams(list: ListKey) {
  return { sort: `${list}.sort`, dir: `${list}.dir`, page: `${list}.page`, status: `${list}.status` } as const;
}

/** A page number from the query: a whole number from 1, else 1. */
export function parsePage(value: string | null): number {
  if (!value || !/^\d{1,9}$/.test(value)) return 1;
  return Math.min(Math.max(Number(value), 1), MAX_PAGE);
}

/** Every table's sort and page from the page's query. */
export function parseListViews(params: URLSearchParams): ListViews {
  const views = {} as ListViews;
  for (const list of LIST_KEYS) {
    const names = emailListParams(list);
    views[list] = { sort: parseSort(list, params.get(names.sort), params.get(names.dir)), page: parsePage(params.get(names.page)) };
    if (list === "newsletter") views[list].filter = { status: parseNewsletterStatus(params.get(names.status)) };
  }
  return views;
}

function isDefaultSort(sort: SortState): boolean {
  return sort.column === DEFAULT_SORT.column && sort.direction === DEFAULT_SORT.direction;
}

/**
 * The page's address with one table's view changed, back at that table. Every
 * other parameter of `search` (the other tables' sort and page) stays as it
 * is; the changed table drops what is its default (date descending, page 1).
 */
export function listViewHref(search: string, list: ListKey, view: ListView): string {
  const params = new URLSearchParams(search);
  const names = emailListParams(list);
  if (isDefaultSort(view.sort)) {
    params.delete(names.sort);
    params.delete(names.dir);
  } else {
    params.set(names.sort, view.sort.column);
    params.set(names.dir, view.sort.direction);
  }
  if (view.page > 1) params.set(names.page, String(view.page));
  else params.delete(names.page);
  const query = params.toString();
  return `${EMAIL_LISTS_PATH}${query ? `?${query}` : ""}#${emailListSectionId(list)}`;
}

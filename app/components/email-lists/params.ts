import { DEFAULT_SORT, LIST_KEYS, parseSort, type ListKey, type SortState } from "~/modules/email-lists/lists";

/**
 * The e-mail tables' state in the dashboard's URL (DESIGN.md §3: sorting and
 * paging are links with query parameters, read by the loader). Each table
 * has its own parameters, so the tables sort and page independently:
 * `{list}.sort` (a column), `{list}.dir` (asc | desc) and `{list}.page`
 * (1-based), e.g. `?newsletter.sort=email&newsletter.dir=asc#email-list-newsletter`.
 */

export const DASHBOARD_PATH = "/admin/dashboard";
export const EMAIL_LISTS_SECTION_ID = "email-lists";
/** At most this many rows per table on a page, so the page does not grow with a list. */
export const EMAIL_LIST_PAGE_SIZE = 50;
/** Pages past this are read as this one (keeps the offset a sane number). */
const MAX_PAGE = 1_000_000;

export type ListView = { sort: SortState; page: number };
export type ListViews = Record<ListKey, ListView>;

export function emailListSectionId(list: ListKey): string {
  return `email-list-${list}`;
}

export function emailListParams(list: ListKey) {
  return { sort: `${list}.sort`, dir: `${list}.dir`, page: `${list}.page` } as const;
}

/** A page number from the query: a whole number from 1, else 1. */
export function parsePage(value: string | null): number {
  if (!value || !/^\d{1,9}$/.test(value)) return 1;
  return Math.min(Math.max(Number(value), 1), MAX_PAGE);
}

/** Every table's sort and page from the dashboard's query. */
export function parseListViews(params: URLSearchParams): ListViews {
  const views = {} as ListViews;
  for (const list of LIST_KEYS) {
    const names = emailListParams(list);
    views[list] = { sort: parseSort(list, params.get(names.sort), params.get(names.dir)), page: parsePage(params.get(names.page)) };
  }
  return views;
}

function isDefaultSort(sort: SortState): boolean {
  return sort.column === DEFAULT_SORT.column && sort.direction === DEFAULT_SORT.direction;
}

/**
 * The dashboard's address with one table's view changed, back at that table.
 * The changed table always carries its sort; the others keep theirs when it
 * is not the default, and their page when past the first.
 */
export function listViewHref(views: ListViews, list: ListKey, view: ListView): string {
  const search = new URLSearchParams();
  for (const key of LIST_KEYS) {
    const current = key === list ? view : views[key];
    const names = emailListParams(key);
    if (key === list || !isDefaultSort(current.sort)) {
      search.set(names.sort, current.sort.column);
      search.set(names.dir, current.sort.direction);
    }
    if (current.page > 1) search.set(names.page, String(current.page));
  }
  return `${DASHBOARD_PATH}?${search.toString()}#${emailListSectionId(list)}`;
}

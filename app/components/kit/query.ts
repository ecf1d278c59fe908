/**
 * Addresses of the workspaces' list views (DESIGN.md §3: sorting, filtering and
 * paging are links and GET forms with query parameters, read by the loader).
 */

/**
 * `pathname` with the query of `search` changed: each key of `set` is set to its
 * value, or removed when the value is null or ''. Every other parameter stays,
 * so a sort link keeps the filters and a filter keeps the sort.
 */
export function hrefWith(pathname: string, search: string, set: Record<string, string | number | null | undefined>, hash = ""): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(set)) {
    if (value === null || value === undefined || value === "") params.delete(name);
    else params.set(name, String(value));
  }
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ""}${hash ? `#${hash}` : ""}`;
}

/** The parameters of `search` a GET form must carry as hidden fields to keep them: all but `own` (its fields, the page, an open confirm step). */
export function keptParams(search: string, own: readonly string[]): Array<[string, string]> {
  return [...new URLSearchParams(search).entries()].filter(([name]) => !own.includes(name));
}

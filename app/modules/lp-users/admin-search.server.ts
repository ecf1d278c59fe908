import { sql, type SQL } from "drizzle-orm";
import { foldForSearch } from "../../../db/client";
import { getDb, type Db } from "~/modules/db/connection.server";
import { lpUsers } from "../../../db/schema";
import { cleanInvestorQuery } from "./investor-search";
import { listUsersByStatusPage, type LpUser } from "./lp-users.server";
import type { UserStatus } from "./schema";

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Name, e-mail, company or reference code contains the folded term (case and
 * accents ignored), read from the row's search_text (the four fields folded,
 * one per line, migrations 0007 and 0011, so a cleaned query, which has no
 * line break, never matches across two).
 */
export function investorSearchMatches(term: string): SQL {
  return sql`${lpUsers.searchText} like ${likeContains(foldForSearch(term))} escape '\\'`;
}

/**
 * One window of a status's investors for the admin's investors page, newest
 * first, with the total: all of them, or those whose name, e-mail, company or
 * reference code contains `query` whatever its case and accents ('eva' finds 'Éva').
 * A search reads the status's rows through its index and compares each row's
 * folded search_text (no index can serve a "contains"; decision 020).
 */
export function listInvestorsPage(
  status: UserStatus,
  page: { offset: number; limit: number; query?: string },
  db: Db = getDb(),
): { users: LpUser[]; total: number } {
  const query = cleanInvestorQuery(page.query);
  return listUsersByStatusPage(status, page, db, query ? investorSearchMatches(query) : undefined);
}

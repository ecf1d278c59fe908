import { or, sql, type SQL } from "drizzle-orm";
import { foldForSearch, getDb, type Db } from "../../../db/client";
import { lpUsers } from "../../../db/schema";
import { cleanInvestorQuery } from "./investor-search";
import { listUsersByStatusPage, type LpUser } from "./lp-users.server";
import type { UserStatus } from "./schema";

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Name, e-mail or company contains the folded term (case and accents ignored). */
function matches(term: string): SQL | undefined {
  const pattern = likeContains(foldForSearch(term));
  const contains = (column: SQL) => sql`fold_search(${column}) like ${pattern} escape '\\'`;
  return or(contains(sql`${lpUsers.name}`), contains(sql`${lpUsers.email}`), contains(sql`coalesce(${lpUsers.company}, '')`));
}

/**
 * One window of a status's investors for the admin's investors page, newest
 * first, with the total: all of them, or those whose name, e-mail or company
 * contains `query` whatever its case and accents ('eva' finds 'Éva').
 * A search reads the status's rows through its index and folds each row's
 * three fields to compare them (no index on folded text; decision 020).
 */
export function listInvestorsPage(
  status: UserStatus,
  page: { offset: number; limit: number; query?: string },
  db: Db = getDb(),
): { users: LpUser[]; total: number } {
  const query = cleanInvestorQuery(page.query);
  return listUsersByStatusPage(status, page, db, query ? matches(query) : undefined);
}

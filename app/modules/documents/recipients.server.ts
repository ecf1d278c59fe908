import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "~/modules/db/connection.server";
import { lpUsers } from "../../../db/schema";
import { listInvestorsPage } from "../lp-users/admin-search.server";
import { MAX_RECIPIENTS } from "./constants";

/** An approved investor as the audience picker shows it. */
export type RecipientChoice = { id: string; name: string; email: string; referenceCode: string | null; checked: boolean; approved: boolean };

/** How many search matches the picker shows besides the ticked investors. */
export const PICKER_MATCHES = 50;

/**
 * The audience picker's investors: the ticked ones (by e-mail; one no longer
 * approved stays ticked and is marked, so saving keeps their place), then up
 * to 50 approved investors matching `query`. `more` says further matches exist.
 */
export function recipientChoices(query: string, checkedIds: readonly string[]): { choices: RecipientChoice[]; more: boolean } {
  const ids = [...new Set(checkedIds)].slice(0, MAX_RECIPIENTS);
  const checked = ids.length
    ? getDb()
        .select()
        .from(lpUsers)
        .where(and(inArray(lpUsers.id, ids), eq(lpUsers.isAdmin, false)))
        .orderBy(asc(sql`${lpUsers.email} collate nocase`))
        .all()
    : [];
  const ticked = new Set(checked.map((u) => u.id));
  const { users, total } = listInvestorsPage("approved", { offset: 0, limit: PICKER_MATCHES, query });
  const toChoice = (u: (typeof checked)[number], isChecked: boolean): RecipientChoice => ({
    id: u.id,
    name: u.name,
    email: u.email,
    referenceCode: u.referenceCode,
    checked: isChecked,
    approved: u.status === "approved",
  });
  return {
    choices: [...checked.map((u) => toChoice(u, true)), ...users.filter((u) => !ticked.has(u.id)).map((u) => toChoice(u, false))],
    more: total > PICKER_MATCHES,
  };
}

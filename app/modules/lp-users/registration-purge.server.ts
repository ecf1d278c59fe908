import { repeatEvery } from "../jobs/repeat.server";
import { log } from "../logging/log.server";
import { purgeUnconfirmedRegistrations } from "./registration.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Delete investor registrations never confirmed (last link sent over 30 days
 * ago) at start and then once a day; returns the stop function. Running in two
 * processes at once is harmless: the delete is one statement.
 */
export function startRegistrationPurge(): () => void {
  return repeatEvery(DAY_MS, "registration purge failed", () => {
    const removed = purgeUnconfirmedRegistrations();
    if (removed > 0) log("info", `Removed ${removed} unconfirmed investor registration(s) older than 30 days`);
  });
}

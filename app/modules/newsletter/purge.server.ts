import { repeatEvery } from "../jobs/repeat.server";
import { log } from "../logging/log.server";
import { purgeUnconfirmedSubscribers } from "./newsletter.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Delete unconfirmed newsletter addresses (pending, last link sent over 30
 * days ago) at start and then once a day; returns the stop function. Running
 * in two processes at once is harmless: the delete is one statement.
 */
export function startNewsletterPurge(): () => void {
  return repeatEvery(DAY_MS, "newsletter purge failed", () => {
    const removed = purgeUnconfirmedSubscribers();
    if (removed > 0) log("info", `Removed ${removed} unconfirmed newsletter address(es) older than 30 days`);
  });
}

import { getDb, type Db } from "../../../db/client";
import { newsletterSubscribers } from "../../../db/schema";
import { AppError } from "../http/app-error";
import { ALREADY_SUBSCRIBED } from "~/content/validation";
import type { NewsletterInput } from "./schema";

export type Subscription = { id: string; email: string; createdAt: Date };

/** Add an address to the newsletter; an address already on the list is a conflict. */
export function subscribeToNewsletter(input: NewsletterInput, db: Db = getDb()): Subscription {
  const row = db
    .insert(newsletterSubscribers)
    .values({ email: input.email })
    .onConflictDoNothing({ target: newsletterSubscribers.email })
    .returning()
    .get();
  if (!row) throw new AppError("conflict", ALREADY_SUBSCRIBED);
  return row;
}

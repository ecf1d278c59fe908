import { MailCheck, MailX } from "lucide-react";
import type { ReactNode } from "react";
import { MailLinkCard, type MailLinkCopy } from "./mail-link-card";

/** What differs between the unsubscribe pages; each route gives its own. */
export type UnsubscribePage = {
  /** The link's path; the button posts to it with the token. */
  path: string;
  copy: MailLinkCopy & { description: string };
  afterDone: ReactNode;
  invalidLink: { to: string; label: string };
};

/** An unsubscribe page's title, description and path, for pageMeta (never indexed). */
export function unsubscribeMeta({ copy, path }: UnsubscribePage) {
  return { title: copy.title, description: copy.description, path, noindex: true };
}

/**
 * The page behind an unsubscribe link (/unsubscribe/documents, /unsubscribe/newsletter):
 * the one-click button while the link's token is good, the outcome once done,
 * or why the link does not work (a bad token, or a refused post).
 */
export function UnsubscribeCard({ page, token, done }: { page: UnsubscribePage; token: string | null; done: boolean | undefined }) {
  const { path, copy, afterDone, invalidLink } = page;
  const valid = done === false ? null : token;
  return (
    <MailLinkCard
      state={done ? "done" : valid ? "ask" : "invalid"}
      copy={copy}
      action={`${path}?token=${encodeURIComponent(valid ?? "")}`}
      fields={{ "List-Unsubscribe": "One-Click" }}
      icons={{ ask: <MailX aria-hidden="true" className="size-6" />, done: <MailCheck aria-hidden="true" className="size-6" /> }}
      afterDone={afterDone}
      invalidLink={invalidLink}
    />
  );
}

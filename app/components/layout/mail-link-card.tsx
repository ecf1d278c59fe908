import { TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { AccountCardHeader } from "~/components/portal/account-field";
import { Button, buttonClass, Card } from "~/components/ui/form";

export type MailLinkCopy = {
  title: string;
  intro: string;
  submit: string;
  submitting: string;
  doneTitle: string;
  done: string;
  invalidTitle: string;
  invalid: string;
};

/**
 * The page behind a link from an e-mail (confirm a subscription or a registration,
 * unsubscribe): one button (after any fields, e.g. a password) that posts to the
 * link (a GET never acts: mail scanners open links), the outcome once done, or why
 * the link does not work. No sign-in; works without JS.
 */
export function MailLinkCard({
  state,
  copy,
  action,
  fields = {},
  icons,
  afterDone,
  invalidLink,
  children,
}: {
  state: "ask" | "done" | "invalid";
  copy: MailLinkCopy;
  /** Where the button posts: the link itself. */
  action: string;
  /** Hidden fields the button sends (the RFC 8058 one-click body). */
  fields?: Record<string, string>;
  icons: { ask: ReactNode; done: ReactNode };
  afterDone?: ReactNode;
  invalidLink: { to: string; label: string };
  /** Fields the person fills in before the button (the registration's password). */
  children?: ReactNode;
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      <Card>
        {state === "done" ? (
          <>
            <div role="status">
              <AccountCardHeader icon={icons.done} title={copy.doneTitle} intro={copy.done} />
            </div>
            {afterDone}
          </>
        ) : state === "ask" ? (
          <>
            <AccountCardHeader icon={icons.ask} title={copy.title} intro={copy.intro} />
            <Form method="post" action={action} className="mt-6 space-y-4">
              {Object.entries(fields).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              {children}
              <Button type="submit" className="w-full" disabled={busy}>
                {busy ? copy.submitting : copy.submit}
              </Button>
            </Form>
          </>
        ) : (
          <>
            <AccountCardHeader icon={<TriangleAlert aria-hidden="true" className="size-6" />} title={copy.invalidTitle} intro={copy.invalid} />
            <Link to={invalidLink.to} className={buttonClass("secondary", "mt-6 w-full")}>
              {invalidLink.label}
            </Link>
          </>
        )}
      </Card>
    </div>
  );
}

import { Form } from "react-router";
import { accountPageCopy } from "~/content/account";
import type { AccountAnswer } from "~/modules/auth/account-form";
import { FormAlert, FormSuccess } from "../portal/account-field";
import { Button } from "../ui/form";

export type SessionRow = {
  id: string;
  started: string;
  lastSeen: string;
  ip: string | null;
  device: string | null;
  current: boolean;
};

/** The user's active sessions, each with 'Sign out' (not this device: Logout does that), and 'Sign out all other sessions'. */
export function SessionsPanel({ sessions, answer }: { sessions: SessionRow[]; answer: AccountAnswer | undefined }) {
  const c = accountPageCopy.sessions;
  const mine = answer?.intent === "revoke-session" || answer?.intent === "revoke-others" ? answer : undefined;
  const others = sessions.some((s) => !s.current);
  return (
    <div>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{c.intro}</p>
      <FormSuccess message={mine?.status === "success" ? mine.message : undefined} />
      {mine?.status === "error" ? <FormAlert message={mine.message} /> : null}
      <div className="mt-4 overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{c.title}</caption>
          <thead className="border-b border-slate-200 text-xs text-slate-600 uppercase dark:border-slate-700 dark:text-slate-300">
            <tr>
              <th scope="col" className="py-2 pr-4 font-semibold">{c.device}</th>
              <th scope="col" className="py-2 pr-4 font-semibold">{c.address}</th>
              <th scope="col" className="py-2 pr-4 font-semibold">{c.started}</th>
              <th scope="col" className="py-2 pr-4 font-semibold">{c.lastSeen}</th>
              <th scope="col" className="py-2 font-semibold"><span className="sr-only">{c.signOut}</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {sessions.map((session) => {
              const device = session.device ?? c.unknownDevice;
              return (
                <tr key={session.id}>
                  <td className="py-2 pr-4">
                    {device}
                    {session.current ? (
                      <span className="ml-2 inline-flex rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800 dark:bg-brand-900 dark:text-brand-100">
                        {c.thisDevice}
                      </span>
                    ) : null}
                  </td>
                  <td className="py-2 pr-4 font-mono text-xs">{session.ip ?? c.unknownAddress}</td>
                  <td className="py-2 pr-4">{session.started}</td>
                  <td className="py-2 pr-4">{session.lastSeen}</td>
                  <td className="py-2 text-right">
                    {session.current ? null : (
                      <Form method="post">
                        <input type="hidden" name="intent" value="revoke-session" />
                        <input type="hidden" name="sessionId" value={session.id} />
                        <Button type="submit" variant="secondary" aria-label={c.signOutLabel(device, session.started)}>
                          {c.signOut}
                        </Button>
                      </Form>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {others ? (
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="revoke-others" />
          <Button type="submit" variant="danger">
            {c.signOutOthers}
          </Button>
        </Form>
      ) : (
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">{c.none}</p>
      )}
    </div>
  );
}

import { ArrowRight, Users } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/team";
import { ExternalLink } from "~/components/site/external-link";
import { buttonClass } from "~/components/ui/form";
import { Avatar } from "~/components/site/avatar";
import { teamContent } from "~/content/team";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: teamContent.title, description: teamContent.description, path: "/team" });

export default function Team() {
  const c = teamContent;
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">{c.title}</h1>
      <p className="mt-4 max-w-3xl text-lg text-slate-600 dark:text-slate-300">{c.intro}</p>

      {c.members.length > 0 ? (
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {c.members.map((member) => (
            <li
              key={member.name}
              className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
            >
              <div className="flex items-center gap-4">
                <Avatar name={member.name} src={member.photo} size="lg" />
                <div>
                  <h2 className="text-lg font-semibold">{member.name}</h2>
                  <p className="text-sm font-medium text-brand-700 dark:text-brand-300">{member.role}</p>
                  <p className="text-sm text-slate-600 dark:text-slate-300">{member.office}</p>
                </div>
              </div>
              <p className="mt-4 flex-1 text-sm text-slate-600 dark:text-slate-300">{member.bio}</p>
              {member.profileUrl ? (
                <ExternalLink
                  href={member.profileUrl}
                  className="mt-4 inline-flex items-center gap-1.5 self-start text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
                >
                  {new URL(member.profileUrl).hostname}
                </ExternalLink>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <div className="mt-12 flex flex-col items-center rounded-xl border border-dashed border-slate-300 px-6 py-16 text-center dark:border-slate-700">
          <Users aria-hidden="true" className="size-10 text-brand-700 dark:text-brand-300" />
          <h2 className="mt-4 text-xl font-semibold">{c.empty.title}</h2>
          <p className="mt-2 max-w-md text-slate-600 dark:text-slate-300">{c.empty.text}</p>
          <Link to="/contact" className={buttonClass("secondary", "mt-6")}>
            {c.empty.link}
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
        </div>
      )}
    </div>
  );
}

import { ArrowRight, Briefcase, Mail, MapPin, Send } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/contact";
import { buttonClass } from "~/components/ui/form";
import { contactContent } from "~/content/contact";
import { firm, officesLine } from "~/content/firm";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: contactContent.title, description: contactContent.description, path: "/contact" });

const cardClass =
  "flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900";
const iconClass = "size-6 text-brand-700 dark:text-brand-300";
const linkClass = "font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300";

export default function Contact() {
  const c = contactContent;
  return (
    <div className="mx-auto max-w-5xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">{c.title}</h1>
      <p className="mt-4 max-w-3xl text-lg text-slate-600 dark:text-slate-300">{c.intro}</p>

      <div className="mt-12 grid gap-6 md:grid-cols-2">
        <section aria-labelledby="contact-pitch" className={`${cardClass} md:col-span-2`}>
          <Send aria-hidden="true" className={iconClass} />
          <h2 id="contact-pitch" className="mt-3 text-xl font-semibold">
            {c.pitch.title}
          </h2>
          <p className="mt-2 text-slate-600 dark:text-slate-300">{c.pitch.text}</p>
          <Link to="/process#pitch" className={buttonClass("primary", "mt-5 self-start")}>
            {c.pitch.link}
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
        </section>

        <section aria-labelledby="contact-offices" className={cardClass}>
          <MapPin aria-hidden="true" className={iconClass} />
          <h2 id="contact-offices" className="mt-3 text-xl font-semibold">
            {c.offices.title}
          </h2>
          <p className="mt-2 text-lg font-medium">{officesLine}</p>
        </section>

        <section aria-labelledby="contact-email" className={cardClass}>
          <Mail aria-hidden="true" className={iconClass} />
          <h2 id="contact-email" className="mt-3 text-xl font-semibold">
            {c.email.title}
          </h2>
          <p className="mt-2 text-slate-600 dark:text-slate-300">{c.email.text}</p>
          <a href={`mailto:${firm.email}`} className={`mt-1 self-start text-lg ${linkClass}`}>
            {firm.email}
          </a>
        </section>

        <section aria-labelledby="contact-investors" className={`${cardClass} md:col-span-2`}>
          <Briefcase aria-hidden="true" className={iconClass} />
          <h2 id="contact-investors" className="mt-3 text-xl font-semibold">
            {c.investors.title}
          </h2>
          <p className="mt-2 text-slate-600 dark:text-slate-300">{c.investors.text}</p>
          <div className="mt-4 flex flex-wrap gap-x-6 gap-y-2">
            <Link to="/lp/login" className={linkClass}>
              {c.investors.portalLink}
            </Link>
            <Link to="/deeptech-fund" className={linkClass}>
              {c.investors.fundLink}
            </Link>
          </div>
        </section>
      </div>
    </div>
  );
}

import { ArrowRight, Sparkles } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/home";
import { NewsletterForm } from "~/components/layout/newsletter-form";
import { buttonClass } from "~/components/ui/form";
import { firm } from "~/content/firm";
import { homeContent } from "~/content/home";
import { newsletterCopy } from "~/content/newsletter";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Home", description: homeContent.description, path: "/" });

export default function Home() {
  return (
    <section className="relative overflow-hidden">
      <div className="mx-auto flex max-w-5xl flex-col items-center px-4 py-20 text-center sm:px-6 sm:py-28">
        <p className="inline-flex items-center gap-2 rounded-full border border-brand-200 bg-brand-50 px-4 py-1 text-sm font-medium text-brand-800 dark:border-brand-800 dark:bg-brand-900 dark:text-brand-100">
          <Sparkles aria-hidden="true" className="size-4" />
          {homeContent.badge}
        </p>
        <h1 className="mt-6 text-4xl font-bold tracking-tight text-balance sm:text-6xl">{homeContent.headline}</h1>
        <p className="mt-4 text-xl font-semibold text-brand-700 dark:text-brand-300">{firm.tagline}</p>
        <p className="mt-4 max-w-2xl text-lg text-pretty text-slate-600 dark:text-slate-300">{homeContent.subtitle}</p>
        <Link to="/portfolio" className={buttonClass("primary", "mt-8 px-6 py-3 text-base")}>
          {homeContent.cta}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
        <div className="mt-14 w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 text-left shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <h2 className="text-lg font-semibold">{newsletterCopy.heroTitle}</h2>
          <p className="mt-1 mb-4 text-sm text-slate-600 dark:text-slate-300">{newsletterCopy.heroText}</p>
          <NewsletterForm formId="newsletter-hero" />
        </div>
      </div>
    </section>
  );
}

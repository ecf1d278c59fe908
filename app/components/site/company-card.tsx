import type { PortfolioCompany } from "~/content/portfolio";
import { Avatar } from "./avatar";
import { ExternalLink } from "./external-link";

/** One portfolio company: logo (or initials), name, sector, description, metric and website. */
export function CompanyCard({ company }: { company: PortfolioCompany }) {
  const host = new URL(company.website).hostname;
  return (
    <article className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className="flex items-center gap-4">
        <Avatar name={company.name} src={company.logo} contain />
        <div className="min-w-0">
          <h3 className="text-lg leading-snug font-semibold">{company.name}</h3>
          <p className="text-sm font-medium text-brand-700 dark:text-brand-300">{company.sector}</p>
        </div>
      </div>
      <p className="mt-4 flex-1 text-sm text-slate-600 dark:text-slate-300">{company.description}</p>
      <p className="mt-4 text-sm font-medium text-slate-800 dark:text-slate-200">{company.metric}</p>
      <ExternalLink
        href={company.website}
        className="mt-3 inline-flex items-center gap-1.5 self-start text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
      >
        {host}
      </ExternalLink>
    </article>
  );
}

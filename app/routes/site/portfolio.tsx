import { Link } from "react-router";
import type { Route } from "./+types/portfolio";
import { CompanyCard } from "~/components/site/company-card";
import { isSector, portfolioCompanies, portfolioContent, portfolioFilters, type Sector } from "~/content/portfolio";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: portfolioContent.title, description: portfolioContent.description, path: "/portfolio" });

/**
 * The sector filter is a query parameter (`?sector=AI`), so it works without
 * JavaScript. A filter matches a company's sector exactly; an unknown value
 * shows every company, with 'All' active.
 */
export function loader({ request }: Route.LoaderArgs) {
  const requested = new URL(request.url).searchParams.get("sector");
  const sector: Sector | null = isSector(requested) ? requested : null;
  const companies = sector ? portfolioCompanies.filter((company) => company.sector === sector) : portfolioCompanies;
  return { sector, companies, total: portfolioCompanies.length };
}

function filterHref(filter: (typeof portfolioFilters)[number]) {
  return filter === portfolioContent.allLabel ? "/portfolio" : `/portfolio?sector=${encodeURIComponent(filter)}`;
}

export default function Portfolio({ loaderData }: Route.ComponentProps) {
  const { sector, companies, total } = loaderData;
  const c = portfolioContent;
  const active = sector ?? c.allLabel;
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">{c.title}</h1>
      <p className="mt-4 max-w-3xl text-lg text-slate-600 dark:text-slate-300">{c.intro}</p>

      <nav aria-label={c.filtersLabel} className="mt-10">
        <ul className="flex flex-wrap gap-2">
          {portfolioFilters.map((filter) => {
            const isActive = filter === active;
            return (
              <li key={filter}>
                <Link
                  to={filterHref(filter)}
                  preventScrollReset
                  aria-current={isActive ? "page" : undefined}
                  className={`inline-flex items-center rounded-full border px-4 py-1.5 text-sm font-medium transition-colors ${
                    isActive
                      ? "border-brand-700 bg-brand-700 text-white dark:border-brand-300 dark:bg-brand-300 dark:text-slate-950"
                      : "border-slate-300 bg-white text-slate-700 hover:border-brand-500 hover:bg-brand-50 hover:text-brand-800 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-200 dark:hover:border-brand-300 dark:hover:bg-slate-800 dark:hover:text-white"
                  }`}
                >
                  {filter}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      <section aria-labelledby="companies-title" className="mt-8">
        <h2 id="companies-title" className="sr-only">
          {c.companiesTitle}
        </h2>
        <p role="status" className="text-sm font-medium text-slate-600 dark:text-slate-300">
          {c.countText(companies.length, total)}
        </p>
        {companies.length > 0 ? (
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {companies.map((company) => (
              <li key={company.name}>
                <CompanyCard company={company} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-6 text-slate-600 dark:text-slate-300">{c.empty}</p>
        )}
      </section>
    </div>
  );
}

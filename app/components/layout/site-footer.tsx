import { Link } from "react-router";
import { firm, officesLine } from "~/content/firm";
import { legalLinks, quickLinks } from "~/content/navigation";
import { newsletterCopy } from "~/content/newsletter";
import { Logo } from "./logo";
import { NewsletterForm } from "./newsletter-form";

/** The footer of SPEC.md §2. */
export function SiteFooter() {
  const linkClass = "text-sm text-slate-600 hover:text-slate-900 hover:underline dark:text-slate-300 dark:hover:text-white";
  return (
    <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-3 lg:col-span-2">
          <Logo />
          <p className="max-w-md text-sm text-slate-600 dark:text-slate-300">{firm.description}</p>
          <p className="text-sm">
            <a href={`mailto:${firm.email}`} className="font-medium text-brand-700 hover:underline dark:text-brand-300">
              {firm.email}
            </a>
          </p>
        </div>
        <nav aria-label="Quick Links">
          <h2 className="text-sm font-semibold">Quick Links</h2>
          <ul className="mt-3 grid grid-cols-2 gap-2">
            {quickLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={linkClass}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold">{newsletterCopy.footerTitle}</h2>
          <p className="mt-2 mb-3 text-sm text-slate-600 dark:text-slate-300">{newsletterCopy.footerText}</p>
          <NewsletterForm formId="newsletter-footer" compact />
        </div>
      </div>
      <div className="border-t border-slate-200 dark:border-slate-800">
        <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-6 text-sm text-slate-600 sm:px-6 md:flex-row md:items-center md:justify-between dark:text-slate-300">
          <p>
            © {firm.copyrightYear} {firm.name}. All rights reserved.
          </p>
          <p>{officesLine}</p>
          <ul className="flex flex-wrap gap-4">
            <li>
              <a href={firm.social.url} target="_blank" rel="noopener noreferrer" className={linkClass}>
                {firm.social.network}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
            {legalLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={linkClass}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}

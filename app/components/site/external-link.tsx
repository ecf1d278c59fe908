import { ExternalLink as ExternalLinkIcon } from "lucide-react";
import type { ReactNode } from "react";

/** A link to another website: opens in a new tab, says so to screen readers, leaks no opener or referrer. */
export function ExternalLink({
  href,
  children,
  className = "",
  icon = true,
}: {
  href: string;
  children: ReactNode;
  className?: string;
  icon?: boolean;
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
      {icon ? <ExternalLinkIcon aria-hidden="true" className="size-3.5 shrink-0" /> : null}
    </a>
  );
}

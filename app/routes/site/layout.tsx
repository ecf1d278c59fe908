import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { ErrorNotice, errorText, SiteFrame } from "~/components/layout/page-frame";
import { firm } from "~/content/firm";

/** The public site's frame: banner, header, page, footer. */
export default function SiteLayout() {
  return (
    <SiteFrame>
      <Outlet />
    </SiteFrame>
  );
}

/** A page of the site that failed to load keeps the frame, so the visitor can go on from the header. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const text = errorText(error);
  return (
    <SiteFrame>
      <title>{`${text.title} | ${firm.name}`}</title>
      <ErrorNotice {...text} />
    </SiteFrame>
  );
}

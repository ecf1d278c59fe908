import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { errorCopy } from "~/content/errors";
import { HEADER_LINKS } from "../e2e/helpers/site";
import SiteLayout, { ErrorBoundary } from "~/routes/site/layout";

/**
 * A page under the site layout whose loader fails: the layout's error boundary
 * answers, in the site's frame (skip link, header with its links, main, footer),
 * not the root boundary's bare page. The page route has no boundary of its own,
 * so the server hands the error to the layout (`errors: { site }`), as here.
 */
function renderFailedPage(error: unknown): string {
  const Stub = createRoutesStub([
    { id: "site", Component: SiteLayout, ErrorBoundary, children: [{ id: "team", path: "/team", Component: () => <p>the page</p> }] },
  ]);
  return renderToString(<Stub initialEntries={["/team"]} hydrationData={{ errors: { site: error } }} />);
}

describe("the site layout's error boundary", () => {
  it("an unexpected loader error: the frame stays, the page says what happened, nothing of the error shows", () => {
    const html = renderFailedPage(new Error("database is locked at /srv/lumen/data.sqlite"));
    expect(html).toContain(errorCopy.skipToContent);
    for (const link of HEADER_LINKS) expect(html).toContain(`href="${link.href}"`);
    expect(html).toMatch(/<main id="main"[^>]*>[\s\S]*<h1[^>]*>Something went wrong<\/h1>/);
    expect(html).toContain(errorCopy.unexpected.message);
    expect(html).toMatch(/<footer/);
    expect(html).not.toContain("database is locked");
    expect(html).not.toContain("the page");
  });

  it("a thrown 404: the not-found texts in the frame", () => {
    // What a loader's `throw data(null, { status: 404 })` becomes in the router state.
    const html = renderFailedPage({ status: 404, statusText: "Not Found", internal: false, data: null });
    expect(html).toMatch(/<footer/);
    expect(html).toContain(errorCopy.notFound.title);
  });
});

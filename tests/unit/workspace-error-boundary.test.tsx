import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { errorCopy } from "~/content/errors";
import { portalCopy } from "~/content/portal";
import AdminLayout, { ErrorBoundary as AdminBoundary } from "~/routes/admin/layout";
import InvestorLayout, { ErrorBoundary as InvestorBoundary } from "~/routes/lp/layout";

/**
 * A workspace page whose loader threw: the layout's error boundary answers. When the layout
 * loaded (its data is in the router state), the frame stays with its navigation and account;
 * when the layout itself failed, the 'could not load the user' page.
 */
const user = { id: "u1", name: "Grace Admin", email: "grace@example.com", role: "admin" };

function renderAdmin(error: unknown, layoutLoaded: boolean): string {
  const Stub = createRoutesStub([
    {
      id: "routes/admin/layout",
      Component: AdminLayout as never,
      ErrorBoundary: AdminBoundary as never,
      children: [{ id: "pitch", path: "/admin/pitches/:id", Component: () => <p>the page</p> }],
    },
  ]);
  const loaderData = layoutLoaded ? { "routes/admin/layout": { user, badges: {}, enrolling: false } } : {};
  return renderToString(<Stub initialEntries={["/admin/pitches/x"]} hydrationData={{ loaderData, errors: { "routes/admin/layout": error } }} />);
}

// What a loader's `throw notFound({ … })` becomes in the router state.
const notFoundPitch = {
  status: 404,
  statusText: "Not Found",
  internal: false,
  data: { title: "Pitch not found", message: "No pitch has this address.", back: { to: "/admin/pitches", label: "All pitches" } },
};

describe("the workspace layouts' error boundary", () => {
  it("a missing record in the admin frame: sidebar, account, the notice and the way back to its list", () => {
    const html = renderAdmin(notFoundPitch, true);
    expect(html).toMatch(/data-testid="admin-sidebar"/);
    expect(html).toContain('href="/admin/investors"');
    expect(html).toContain("Grace Admin");
    expect(html).toMatch(/<main id="main"[^>]*>[\s\S]*<h1[^>]*>Pitch not found<\/h1>/);
    expect(html).toContain("No pitch has this address.");
    expect(html).toMatch(/<a[^>]*href="\/admin\/pitches"[^>]*>[\s\S]*?All pitches<\/a>/);
    expect(html).not.toContain(portalCopy.loadUserError);
    expect(html).not.toContain("the page");
  });

  it("a 404 without a notice: the generic not-found text and the way to the overview", () => {
    const html = renderAdmin({ status: 404, statusText: "Not Found", internal: false, data: null }, true);
    expect(html).toContain(errorCopy.recordNotFound.title);
    expect(html).toContain(errorCopy.recordNotFound.message);
    expect(html).toContain(errorCopy.adminHome);
  });

  it("another error of a page: the frame stays, the unexpected-error text, nothing of the error", () => {
    const html = renderAdmin(new Error("database is locked at /srv/data.sqlite"), true);
    expect(html).toMatch(/data-testid="admin-sidebar"/);
    expect(html).toContain(errorCopy.unexpected.message);
    expect(html).not.toContain("database is locked");
  });

  it("the layout itself failed: today's 'could not load the user', without navigation", () => {
    const html = renderAdmin(new Error("no user"), false);
    expect(html).toContain(portalCopy.loadUserError);
    expect(html).not.toMatch(/data-testid="admin-sidebar"/);
  });

  it("the investor portal does the same: a page's 404 in its frame, the layout's failure as before", () => {
    const render = (loaded: boolean) => {
      const Stub = createRoutesStub([
        {
          id: "routes/lp/layout",
          Component: InvestorLayout as never,
          ErrorBoundary: InvestorBoundary as never,
          children: [{ id: "home", path: "/lp/dashboard", Component: () => <p>the page</p> }],
        },
      ]);
      const loaderData = loaded ? { "routes/lp/layout": { user: { ...user, role: "lp" } } } : {};
      const error = { status: 404, statusText: "Not Found", internal: false, data: null };
      return renderToString(<Stub initialEntries={["/lp/dashboard"]} hydrationData={{ loaderData, errors: { "routes/lp/layout": error } }} />);
    };
    const inFrame = render(true);
    expect(inFrame).toContain('href="/lp/account"');
    expect(inFrame).toContain(errorCopy.recordNotFound.title);
    expect(inFrame).not.toContain(portalCopy.loadUserError);
    expect(render(false)).toContain(portalCopy.loadUserError);
  });
});

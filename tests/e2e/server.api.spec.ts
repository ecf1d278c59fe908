import { latestMailTo, mailCountTo } from "./helpers/accounts";
import { expect, test } from "./helpers/fixtures";
import { expectJsonError, expectSecurityHeaders } from "./helpers/http";
import { BASE_URL } from "./helpers/origin";

const CONFIRM_SUBJECT = /^Confirm your .* newsletter subscription$/;

/**
 * The HTTP surface without a browser: health, SEO files, security headers,
 * the 404, cross-site refusal, body limits and the public page cache.
 */

const PUBLIC_PAGES = [
  "/",
  "/investment-focus",
  "/portfolio",
  "/deeptech-fund",
  "/fund-i",
  "/fund-ii",
  "/team",
  "/process",
  "/contact",
  "/privacy-policy",
  "/terms-of-service",
];

test("GET /healthz answers 200 while the database answers", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok" });
});

test.describe("security headers", () => {
  test("on an HTML page, with a script policy that allows no arbitrary inline script", async ({ request }) => {
    const response = await request.get("/");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^text\/html/);
    expectSecurityHeaders(response, "page /");
    const csp = response.headers()["content-security-policy"] ?? "";
    const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src")) ?? "";
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
  });

  test("on static files: the favicon and a built script", async ({ request }) => {
    const favicon = await request.get("/favicon.svg");
    expect(favicon.status()).toBe(200);
    expectSecurityHeaders(favicon, "/favicon.svg");

    const html = await (await request.get("/")).text();
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"|import\s*\(?\s*"(\/assets\/[^"]+\.js)"|href="(\/assets\/[^"]+\.js)"/.exec(html);
    const assetPath = script?.[1] ?? script?.[2] ?? script?.[3];
    expect(assetPath, "the home page references a built script under /assets/").toBeTruthy();
    const asset = await request.get(assetPath!);
    expect(asset.status()).toBe(200);
    expect(asset.headers()["content-type"]).toMatch(/javascript/);
    expectSecurityHeaders(asset, assetPath!);
  });

  test("on JSON answers", async ({ request }) => {
    const ok = await request.post("/api/newsletter", { data: { email: `headers-${Date.now()}@example.com` } });
    expect(ok.status()).toBe(202);
    expectSecurityHeaders(ok, "POST /api/newsletter 202");

    const bad = await request.post("/api/newsletter", { data: { email: 42 } });
    expect(bad.status()).toBe(400);
    expectSecurityHeaders(bad, "POST /api/newsletter 400");

    const method = await request.get("/api/pitch");
    expect(method.status()).toBe(405);
    expectSecurityHeaders(method, "GET /api/pitch 405");
  });

  test("on the 404 page and the API 404", async ({ request }) => {
    const page = await request.get("/no-such-page-here");
    expect(page.status()).toBe(404);
    expectSecurityHeaders(page, "404 page");

    const api = await request.get("/api/no-such-endpoint");
    await expectJsonError(api, 404);
    expectSecurityHeaders(api, "API 404");
  });

  test("on refusals made before the app runs (403 cross-site, 413 too large)", async ({ request }) => {
    const crossSite = await request.post("/api/newsletter", {
      data: { email: "x@example.com" },
      headers: { Origin: "https://evil.example" },
    });
    expect(crossSite.status()).toBe(403);
    expectSecurityHeaders(crossSite, "403");

    const tooLarge = await request.post("/api/pitch", {
      data: Buffer.from("x".repeat(70 * 1024)),
      headers: { "Content-Type": "application/json" },
    });
    expect(tooLarge.status()).toBe(413);
    expectSecurityHeaders(tooLarge, "413");
  });
});

test.describe("unknown paths", () => {
  test("an unknown page answers 404 with the fallback page", async ({ request }) => {
    for (const path of ["/does-not-exist", "/portfolio/nope/deeper", "/fund-iii"]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      const html = await response.text();
      expect(html, path).toContain("404 Page Not Found");
      expect(html, path).toContain("Did you forget to add the page to the router?");
    }
  });

  test("an unknown API path answers a JSON 404, not the HTML page", async ({ request }) => {
    await expectJsonError(await request.get("/api/unknown"), 404);
    await expectJsonError(await request.post("/api/unknown", { data: {} }), 404);
  });
});

test.describe("SEO files", () => {
  test("/sitemap.xml lists every public page and no private one", async ({ request, baseURL }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/xml/);
    const xml = await response.text();
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    for (const path of PUBLIC_PAGES) {
      expect(locs, `sitemap lists ${path}`).toContain(`${baseURL}${path}`);
    }
    for (const loc of locs) {
      expect(loc?.startsWith(`${BASE_URL}/`)).toBe(true);
      expect(loc).not.toMatch(/\/(lp|admin|api)\/|\/documents$|\/signup$/);
    }
  });

  test("/robots.txt keeps the portals, the API and the fund documents out", async ({ request, baseURL }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toMatch(/^text\/plain/);
    const lines = (await response.text()).split(/\r?\n/).map((l) => l.trim());
    expect(lines).toContain("User-agent: *");
    for (const path of ["/lp/", "/admin/", "/api/", "/fund-i/documents", "/fund-ii/documents"]) {
      expect(lines, `Disallow: ${path}`).toContain(`Disallow: ${path}`);
    }
    expect(lines).not.toContain("Disallow: /");
    expect(lines).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });
});

test.describe("cross-site requests are refused", () => {
  const evil = { Origin: "https://evil.example" };
  const crossSite = { "Sec-Fetch-Site": "cross-site" };

  for (const [label, headers] of [
    ["Origin: https://evil.example", evil],
    ["Sec-Fetch-Site: cross-site", crossSite],
  ] as const) {
    test(`POST /api/newsletter with ${label} → 403, nothing stored`, async ({ request }) => {
      const email = `crosssite-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
      const refused = await request.post("/api/newsletter", { data: { email }, headers });
      await expectJsonError(refused, 403, /cross-site/i);
      // The refused request sent nothing: a same-origin request for the address is accepted, and its
      // confirmation mail is the only one the address gets.
      const allowed = await request.post("/api/newsletter", {
        data: { email },
        headers: { Origin: BASE_URL, "Sec-Fetch-Site": "same-origin" },
      });
      expect(allowed.status()).toBe(202);
      await latestMailTo(email, CONFIRM_SUBJECT);
      expect(mailCountTo(email, CONFIRM_SUBJECT)).toBe(1);
    });

    test(`POST /process (pitch form) with ${label} → 403`, async ({ request }) => {
      const response = await request.post("/process", {
        form: {
          name: "Eve",
          email: "eve@example.com",
          company: "Evil Corp",
          stage: "Seed",
          deckUrl: "",
          message: "Cross-site pitch",
        },
        headers,
      });
      expect(response.status()).toBe(403);
      expect(await response.text()).toMatch(/cross-site/i);
    });
  }

  test("other form targets refuse cross-site posts too (/newsletter, /theme)", async ({ request }) => {
    for (const path of ["/newsletter", "/theme"]) {
      const response = await request.post(path, {
        form: { email: "eve@example.com", theme: "dark", redirectTo: "/" },
        headers: evil,
        maxRedirects: 0,
      });
      expect(response.status(), path).toBe(403);
    }
  });

  test("a same-origin form post is accepted", async ({ request }) => {
    const response = await request.post("/newsletter", {
      form: { email: `sameorigin-${Date.now()}@example.com`, formId: "newsletter-page", redirectTo: "/newsletter" },
      headers: { Origin: BASE_URL, "Sec-Fetch-Site": "same-origin" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(303);
    expect(response.headers()["location"]).toMatch(/^\/newsletter#newsletter-page$/);
  });
});

test.describe("the public page cache", () => {
  test("a second GET of / is served from the cache with identical HTML", async ({ request }) => {
    const first = await request.get("/");
    expect(first.status()).toBe(200);
    const firstHtml = await first.text();
    expect(["HIT", "MISS"]).toContain(first.headers()["x-page-cache"]);

    const second = await request.get("/");
    expect(second.status()).toBe(200);
    expect(second.headers()["x-page-cache"]).toBe("HIT");
    expect(await second.text()).toBe(firstHtml);
    expectSecurityHeaders(second, "cached /");
  });

  test("a visitor with a flash message is not served the cached page", async ({ request }) => {
    // A no-JS newsletter post leaves a flash cookie for the next page.
    const post = await request.post("/newsletter", {
      form: { email: `cache-${Date.now()}@example.com`, formId: "newsletter-hero", redirectTo: "/" },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(303);
    const page = await request.get("/");
    expect(page.status()).toBe(200);
    expect(page.headers()["x-page-cache"]).toBeUndefined();
    expect(await page.text()).toContain("Almost done: we&#x27;ve sent you an e-mail with a link to confirm your subscription.");
  });
});

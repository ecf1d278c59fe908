import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

export default [
  // Public site, under one frame (banner, header, footer).
  layout("routes/site/layout.tsx", [
    index("routes/site/home.tsx"),
    route("investment-focus", "routes/site/investment-focus.tsx"),
    route("portfolio", "routes/site/portfolio.tsx"),
    route("deeptech-fund", "routes/site/deeptech-fund.tsx"),
    route("fund-i", "routes/site/fund-detail.tsx", { id: "fund-i" }),
    route("fund-ii", "routes/site/fund-detail.tsx", { id: "fund-ii" }),
    route("team", "routes/site/team.tsx"),
    route("process", "routes/site/process.tsx"),
    route("contact", "routes/site/contact.tsx"),
    route("login", "routes/site/login.tsx"),
    route("privacy-policy", "routes/site/privacy-policy.tsx"),
    route("terms-of-service", "routes/site/terms-of-service.tsx"),
    route("newsletter", "routes/site/newsletter.tsx"),
    route("*", "routes/site/not-found.tsx"),
  ]),
  // Form targets without a page of their own.
  route("theme", "routes/site/theme.tsx"),
  // JSON endpoints (SPEC.md §7).
  ...prefix("api", [
    route("newsletter", "routes/api/newsletter.ts"),
    route("pitch", "routes/api/pitch.ts"),
    route("*", "routes/api/not-found.ts"),
  ]),
  // SEO.
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),
] satisfies RouteConfig;

import type { MetaDescriptor } from "react-router";
import { firm } from "~/content/firm";

type MetaArgs = { matches: ReadonlyArray<{ id: string; data?: unknown } | undefined> };

/** The site's absolute base URL, from the root loader (APP_URL). */
function appUrl(args: MetaArgs): string {
  const root = args.matches.find((m) => m?.id === "root")?.data as { appUrl?: string } | undefined;
  return root?.appUrl ?? "";
}

/** Title, description, canonical link and Open Graph tags for a public page. */
export function pageMeta(
  args: MetaArgs,
  { title, description, path, noindex = false }: { title: string; description: string; path: string; noindex?: boolean },
): MetaDescriptor[] {
  const fullTitle = path === "/" ? `${firm.name} | ${firm.tagline}` : `${title} | ${firm.name}`;
  const url = `${appUrl(args)}${path}`;
  const tags: MetaDescriptor[] = [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: firm.name },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: "summary" },
  ];
  if (noindex) tags.push({ name: "robots", content: "noindex, nofollow" });
  return tags;
}

/** pageMeta for a page whose copy comes as its loader's `content` (its title and description), at `path`. */
export function contentPageMeta(args: MetaArgs & { loaderData?: { content: { title: string; description: string } } | undefined }, path: string): MetaDescriptor[] {
  return pageMeta(args, { title: args.loaderData?.content.title ?? "", description: args.loaderData?.content.description ?? "", path });
}

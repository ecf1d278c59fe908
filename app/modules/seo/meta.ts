import type { MetaDescriptor } from "react-router";
import { firm } from "~/content/firm";

type MetaArgs = { matches: ReadonlyArray<{ id: string; data?: unknown } | undefined> };

/** The site's absolute base URL, from the root loader (APP_URL). */
function appUrl(args: MetaArgs): string {
  const root = args.matches.find((m) => m?.id === "root")?.data as { appUrl?: string } | undefined;
  return root?.appUrl ?? "";
}

/** A tab or a search result shows about this many characters of a title (html-validate's long-title). */
const TITLE_MAX = 70;

/** '<title> | <firm>', the page's part cut with an ellipsis when a record's name (a document title) would make it longer than TITLE_MAX. */
function withFirmName(title: string): string {
  const suffix = ` | ${firm.name}`;
  const room = TITLE_MAX - suffix.length;
  return `${title.length > room ? `${title.slice(0, room - 1).trimEnd()}\u2026` : title}${suffix}`;
}

/** Title, description, canonical link and Open Graph tags for a public page. */
export function pageMeta(
  args: MetaArgs,
  { title, description, path, noindex = false }: { title: string; description: string; path: string; noindex?: boolean },
): MetaDescriptor[] {
  const fullTitle = path === "/" ? `${firm.name} | ${firm.tagline}` : withFirmName(title);
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

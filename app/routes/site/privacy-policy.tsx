import type { Route } from "./+types/privacy-policy";
import { LegalDocumentView } from "~/components/site/legal-document";
import { privacyPolicy } from "~/content/privacy";
import { pageMeta } from "~/modules/seo/meta";

// The text travels as loader data, so it is not also shipped in the page's JavaScript.
export function loader() {
  return { doc: privacyPolicy };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.doc.title ?? "",
    description: args.loaderData?.doc.description ?? "",
    path: "/privacy-policy",
  });

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentView doc={loaderData.doc} />;
}

import type { Route } from "./+types/terms-of-service";
import { LegalDocumentView } from "~/components/site/legal-document";
import { termsOfService } from "~/content/terms";
import { pageMeta } from "~/modules/seo/meta";

// The text travels as loader data, so it is not also shipped in the page's JavaScript.
export function loader() {
  return { doc: termsOfService };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.doc.title ?? "",
    description: args.loaderData?.doc.description ?? "",
    path: "/terms-of-service",
  });

export default function TermsOfService({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentView doc={loaderData.doc} />;
}

import type { Route } from "./+types/terms-of-service";
import { LegalDocumentView } from "~/components/site/legal-document";
import { termsOfService } from "~/content/terms";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: termsOfService.title, description: termsOfService.description, path: termsOfService.path });

export default function TermsOfService() {
  return <LegalDocumentView doc={termsOfService} />;
}

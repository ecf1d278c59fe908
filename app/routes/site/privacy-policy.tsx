import type { Route } from "./+types/privacy-policy";
import { LegalDocumentView } from "~/components/site/legal-document";
import { privacyPolicy } from "~/content/privacy";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: privacyPolicy.title, description: privacyPolicy.description, path: privacyPolicy.path });

export default function PrivacyPolicy() {
  return <LegalDocumentView doc={privacyPolicy} />;
}

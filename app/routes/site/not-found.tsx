import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { ErrorNotice } from "~/components/layout/page-frame";
import { errorCopy } from "~/content/errors";
import { firm } from "~/content/firm";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [
  { title: `${errorCopy.notFound.title} | ${firm.name}` },
  { name: "robots", content: "noindex" },
];

/** Any path no route matches: '404 Page Not Found', with HTTP status 404. */
export default function NotFound() {
  return <ErrorNotice {...errorCopy.notFound} />;
}

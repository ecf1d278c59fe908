import type { Route } from "./+types/fund-i-documents";

/** Placeholder: being built (issue 5). */
export async function loader(_args: Route.LoaderArgs) {
  return null;
}

export default function Page() {
  return null;
}

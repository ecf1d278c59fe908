import type { Route } from "./+types/fund-ii-signup";

/** Placeholder: being built (issue 5). */
export async function loader(_args: Route.LoaderArgs) {
  return null;
}

export default function Page() {
  return null;
}

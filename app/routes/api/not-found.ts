import { requestMessages } from "~/content/validation";

/** Unknown API paths answer JSON, not the HTML 404 page. */
function notFound() {
  return Response.json({ error: requestMessages.notFound }, { status: 404 });
}

export const loader = notFound;
export const action = notFound;

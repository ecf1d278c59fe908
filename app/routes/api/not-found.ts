/** Unknown API paths answer JSON, not the HTML 404 page. */
function notFound() {
  return Response.json({ error: "Not found" }, { status: 404 });
}

export const loader = notFound;
export const action = notFound;

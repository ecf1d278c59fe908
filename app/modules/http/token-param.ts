/** The `token` of a mailed link's address (confirm, unsubscribe); null when absent. */
export const tokenParam = (request: Request): string | null => new URL(request.url).searchParams.get("token");

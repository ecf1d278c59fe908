/** What a page says when it cannot be shown (SPEC.md §8: the 404 texts). */
export const errorCopy = {
  notFound: { title: "404 Page Not Found", message: "Did you forget to add the page to the router?" },
  unexpected: { title: "Something went wrong", message: "An unexpected error occurred. Please try again in a moment." },
  home: "Back to the home page",
  skipToContent: "Skip to content",
} as const;

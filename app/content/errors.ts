/** What a page says when it cannot be shown (SPEC.md §8: the 404 texts). */
export const errorCopy = {
  notFound: { title: "404 Page Not Found", message: "Did you forget to add the page to the router?" },
  unexpected: { title: "Something went wrong", message: "An unexpected error occurred. Please try again in a moment." },
  /** A workspace page's record that is not there (a thrown 404 shown in the admin or LP frame). */
  recordNotFound: { title: "Not found", message: "What you asked for does not exist, or it is no longer available." },
  /** The way back from a workspace page that could not be shown. */
  adminHome: "Back to the overview",
  lpHome: "Back to your home page",
  home: "Back to the home page",
  skipToContent: "Skip to content",
} as const;

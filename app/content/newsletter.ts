/** Newsletter form copy (SPEC.md §4, §8). */
export const newsletterCopy = {
  footerTitle: "Newsletter",
  footerText: "Quarterly notes on deeptech, our portfolio and the fund.",
  heroTitle: "Stay Updated",
  heroText: "Get our quarterly deeptech briefing in your inbox.",
  label: "Email address",
  placeholder: "you@example.com",
  submit: "Subscribe",
  submitting: "Subscribing...",
  subscribed: "Thank you for subscribing!",
  toastSuccess: { title: "Success", description: "You've been subscribed to our newsletter!" },
  toastDuplicate: { title: "Error", description: "This email is already subscribed." },
  toastFailure: { title: "Error", description: "Failed to subscribe. Please try again." },
} as const;

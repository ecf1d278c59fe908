import { firm } from "./firm";

/**
 * The fund sign-ups and fund document pages (SPEC.md §2, §8): /fund-i/signup,
 * /fund-ii/signup, /fund-i/documents, /fund-ii/documents. Quoted SPEC texts
 * are letter for letter; the field rules' messages are in ./validation.ts.
 */
export const fundAccessCopy = {
  registrationFailed: { title: "Registration Failed", fallback: "An error occurred during registration" },
  fields: {
    name: "Full Name",
    email: "Email",
    businessEmail: "Business email",
    company: "Company (optional)",
    phone: "Phone (optional)",
  },
  fundISignup: {
    metaTitle: "Access Deeptech Fund I Documents",
    description: "Register to read the Deeptech Fund I documents.",
    title: "Deeptech Fund I Documents",
    intro: "Deeptech Fund I is closed and not publicly offered. Enter your details to access its documents.",
    submit: "Access Documents",
    submitting: "Processing...",
    success: { title: "Access Granted", description: "You now have access to Deeptech Fund I documents." },
    back: "Back to Deeptech Fund I",
  },
  fundIISignup: {
    metaTitle: "Request Access to Deeptech Fund II Documents",
    description: "Accredited and qualified investors can request access to the Deeptech Fund II documents.",
    title: "Deeptech Fund II Documents",
    intro: "Access is available to accredited/qualified investors upon verification. We will e-mail you a personal access link.",
    confirm:
      "I confirm that I am an accredited/qualified investor and agree to the confidentiality of these materials.",
    submit: "Request Access",
    note: "For informational purposes only; not an offer or solicitation.",
    success: {
      title: "Check Your Email",
      description:
        "We've sent you a permanent access link to view all Fund II documents. Please check your inbox and junk/spam folder.",
      duration: 8000,
    },
    back: "Back to Deeptech Fund II",
  },
  documents: {
    loading: "Loading documents...",
    view: "View",
    download: "Download",
    /** Accessible names of the links, e.g. "View Q3 Report (opens in a new tab)". */
    viewLabel: (title: string) => `View ${title} (opens in a new tab)`,
    downloadLabel: (title: string) => `Download ${title}`,
    documentCount: (n: number) => (n === 1 ? "1 document" : `${n} documents`),
  },
  fundIDocuments: {
    metaTitle: "Deeptech Fund I Documents",
    description: "The Deeptech Fund I documents, for registered investors.",
    title: "Deeptech Fund I Documents",
    intro: "Reports, summaries and research for Deeptech Fund I.",
    listLabel: "Deeptech Fund I documents",
    empty: "No documents available yet",
    emptyDetail: "Documents for Deeptech Fund I will appear here as soon as they are published.",
    back: "Back to Deeptech Fund I",
  },
  fundIIDocuments: {
    metaTitle: "Deeptech Fund II Documents",
    description: "The Deeptech Fund II documents, for verified accredited and qualified investors.",
    /** SPEC.md §2: the product name followed by 'Deeptech Fund II Documents'. */
    title: `${firm.name} Deeptech Fund II Documents`,
    intro: "Fund documents, summaries and research for verified accredited and qualified investors.",
    /** The page's heading while access is being checked or refused. */
    gateTitle: "Deeptech Fund II Documents",
    cardTitle: "Documents & Resources",
    listLabel: "Deeptech Fund II documents by category",
    emptyTitle: "No Documents Available",
    emptyText: "Documents for Deeptech Fund II will be uploaded soon.",
    emptyCategory: "No documents in this category yet",
    validating: "Validating access...",
    redirecting: ". Redirecting to signup...",
    signupLink: "Go to the Fund II sign-up now",
    back: "Back to Deeptech Fund II",
    note: "For informational purposes only; not an offer or solicitation.",
  },
} as const;

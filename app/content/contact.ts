import { firm } from "./firm";

/** /contact: 'Contact Us' (SPEC.md §2). Offices and e-mail come from firm.ts. */
export const contactContent = {
  title: "Contact Us",
  intro: "We are glad to hear from founders, investors and partners. Here is the quickest way to reach the right people.",
  description: `Get in touch with ${firm.name}: submit your pitch through our process page, or write to us. Offices in ${firm.offices.slice(0, -1).join(", ")} and ${firm.offices[firm.offices.length - 1]}.`,
  pitch: {
    title: "Founders",
    text: "We review every pitch through our Process page, and we respond to every pitch within 5 business days.",
    link: "Submit your pitch",
  },
  offices: {
    title: "Our Offices",
  },
  email: {
    title: "General Information",
    text: "For general questions, press and partnerships, write to us at",
  },
  investors: {
    title: "Investors",
    text: "Limited partners can sign in to the Investor Portal. To learn about our active fund, see our funds page.",
    portalLink: "Investor Portal",
    fundLink: "Our funds",
  },
} as const;

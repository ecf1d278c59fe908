import { firm } from "./firm";
import { emailLink, officeCities, type LegalDocument } from "./legal";

/** /terms-of-service: the Terms of Service. */
export const termsOfService: LegalDocument = {
  title: "Terms of Service",
  description: `The terms that govern use of the ${firm.name} website, investor portal and fund document pages, including investment disclaimers and investor restrictions.`,
  path: "/terms-of-service",
  lastUpdated: firm.legalLastUpdated,
  intro: [
    {
      type: "p",
      text: `These Terms of Service ("Terms") govern your use of the website of ${firm.name} ("we", "us", "our"), including the investor portal, the fund document pages and the forms on the site. By using the website you agree to these Terms. If you do not agree, please do not use it.`,
    },
    {
      type: "p",
      text: "Please read sections 3 to 5 carefully: they explain that nothing on this website is an offer of investment or investment advice, and who may access information about our funds.",
    },
  ],
  sections: [
    {
      id: "about-us",
      title: "1. About us",
      blocks: [
        {
          type: "p",
          text: [
            `The website is operated by ${firm.name}, a venture investment firm with offices in ${officeCities}. You can contact us at `,
            emailLink,
            ".",
          ],
        },
      ],
    },
    {
      id: "use-of-website",
      title: "2. Using the website",
      blocks: [
        {
          type: "p",
          text: "You may use the website for lawful purposes: to learn about our firm, our funds and our portfolio, to submit a pitch, to subscribe to our newsletter and, if you are eligible, to use the investor portal and fund document pages. You agree not to:",
        },
        {
          type: "ul",
          items: [
            "use the website in a way that breaks any law or regulation, or infringes the rights of others;",
            "try to gain access to accounts, documents or parts of the website you are not authorised to use, or test, scan or probe its security;",
            "interfere with the website's operation, for example by sending automated requests at a volume that burdens our systems or by introducing malicious code;",
            "submit information that is false, misleading or that you have no right to share;",
            "copy, scrape or republish content from the website for commercial purposes without our written permission.",
          ],
        },
        {
          type: "p",
          text: "We may change, suspend or withdraw any part of the website at any time, and we may limit or end your access if you breach these Terms.",
        },
      ],
    },
    {
      id: "no-offer",
      title: "3. No offer or solicitation",
      blocks: [
        {
          type: "p",
          text: "The content of this website is for information only. It is not an offer to sell, or a solicitation of an offer to buy, interests in any fund or any other security or financial instrument, in any jurisdiction. An offer of interests in a fund may be made only through that fund's confidential offering and subscription documents, to eligible investors, and only where it is lawful to do so. Those documents prevail over anything on the website.",
        },
        {
          type: "p",
          text: "Information about a fund that is closed, including Deeptech Fund I, is provided for background only; such a fund is not publicly offered.",
        },
      ],
    },
    {
      id: "not-advice",
      title: "4. Not investment advice; risk",
      blocks: [
        {
          type: "p",
          text: "Nothing on the website is investment, legal, tax or accounting advice, or a recommendation that any investment is suitable for you. You should make your own assessment and take independent professional advice before making any investment decision.",
        },
        {
          type: "p",
          text: "Venture capital investments carry a high degree of risk. They are illiquid, their value can fall as well as rise, and you may lose all of the money you invest. Past performance, including that of any earlier fund or portfolio company, is not a reliable indicator of future results. Statements about the future, such as strategies, targets and portfolio construction, are intentions and not guarantees.",
        },
        {
          type: "p",
          text: "Information about portfolio companies is based on information they gave us and may be incomplete or out of date. Their inclusion is not a recommendation to invest in them.",
        },
      ],
    },
    {
      id: "eligible-investors",
      title: "5. Accredited and qualified investors only",
      blocks: [
        {
          type: "p",
          text: "The investor portal and the fund document pages are intended only for persons who are accredited, qualified, professional or otherwise eligible investors under the laws that apply to them, for example:",
        },
        {
          type: "ul",
          items: [
            "in Switzerland, qualified investors within the meaning of the Collective Investment Schemes Act;",
            "in the United Kingdom, investment professionals, certified high net worth individuals or certified sophisticated investors within the meaning of the Financial Services and Markets Act 2000 (Financial Promotion) Order 2005, or professional clients;",
            "in the United States, accredited investors within the meaning of Regulation D under the Securities Act of 1933;",
            "in South Africa, persons to whom an offer may lawfully be made without a registered prospectus.",
          ],
        },
        {
          type: "p",
          text: "When you request access, you confirm that you are such an investor and that you are not accessing the material from a jurisdiction where doing so would be unlawful. We rely on that confirmation, we may ask for evidence of your status, and we may refuse, limit or withdraw access at our discretion. If your status changes, you must stop using the material and tell us.",
        },
      ],
    },
    {
      id: "confidentiality",
      title: "6. Confidentiality of fund documents",
      blocks: [
        {
          type: "p",
          text: "Documents made available through the investor portal, the fund document pages or an access link sent to you are confidential and are provided solely so that you can evaluate or monitor your investment. You agree:",
        },
        {
          type: "ul",
          items: [
            "to keep them and their contents confidential and not to disclose them to anyone except your professional advisers, who must be bound by the same duty;",
            "not to copy, forward, publish or post them, or share your access link, username or password;",
            "not to use them for any other purpose, including trading in securities on the basis of non-public information about a portfolio company;",
            "to delete or destroy them, and any copies, if we ask you to.",
          ],
        },
        {
          type: "p",
          text: "We record access to confidential documents. Access links are personal; if you believe yours has been shared or compromised, tell us immediately so that we can revoke it and send you a new one.",
        },
      ],
    },
    {
      id: "accounts",
      title: "7. Investor portal accounts",
      blocks: [
        {
          type: "p",
          text: "Registering for the investor portal is a request for access; we approve or reject requests at our discretion. You must give accurate information and keep it up to date. You are responsible for keeping your password secret and for activity under your account, and you must tell us promptly about any unauthorised use. We may suspend or close an account, or remove documents, at any time, in particular if we suspect misuse or if you are no longer eligible.",
        },
      ],
    },
    {
      id: "pitches",
      title: "8. Pitches and other submissions",
      blocks: [
        {
          type: "p",
          text: "We are glad to receive pitches, but submitting one does not create any obligation for us to invest, to reply in a particular way or to enter into a confidentiality agreement. We review many companies, some of which may be similar to or compete with yours, and we remain free to invest in them. We treat your materials with discretion and use them only to evaluate a possible investment. Please do not send us information you consider a trade secret before we have discussed it with you.",
        },
        {
          type: "p",
          text: "You confirm that you have the right to share what you submit and that it does not infringe anyone's rights.",
        },
      ],
    },
    {
      id: "intellectual-property",
      title: "9. Intellectual property",
      blocks: [
        {
          type: "p",
          text: `The website and its content, including text, graphics, logos and documents, belong to ${firm.name}, our portfolio companies or our licensors, and are protected by copyright, trade mark and other laws. You may view and print pages for your personal, non-commercial use. Any other use needs our prior written permission. Names and logos of portfolio companies and partners are their trade marks and are used with their permission.`,
        },
      ],
    },
    {
      id: "third-party-links",
      title: "10. Links to other websites",
      blocks: [
        {
          type: "p",
          text: "The website links to websites of portfolio companies, co-investment partners and others. We do not control those websites and are not responsible for their content, availability or privacy practices. A link does not mean that we endorse the website or its owner.",
        },
      ],
    },
    {
      id: "disclaimers",
      title: "11. Disclaimers",
      blocks: [
        {
          type: "p",
          text: "We take care to keep the website accurate and available, but it is provided \"as is\" and \"as available\". To the extent permitted by law, we make no warranty that its content is complete, accurate or current, or that the website will be uninterrupted, secure or free of errors or viruses. Figures may be rounded, estimated or unaudited.",
        },
      ],
    },
    {
      id: "liability",
      title: "12. Limitation of liability",
      blocks: [
        {
          type: "p",
          text: "To the extent permitted by law, we are not liable for any loss or damage arising from your use of, or inability to use, the website or from reliance on its content, including loss of profit, investment loss or indirect or consequential loss.",
        },
        {
          type: "p",
          text: "Nothing in these Terms excludes or limits liability that cannot be excluded or limited by law, including liability for intent or gross negligence, for fraud, or for death or personal injury caused by negligence. Where you invest in a fund, your rights are governed by that fund's own documents.",
        },
      ],
    },
    {
      id: "privacy",
      title: "13. Privacy",
      blocks: [
        {
          type: "p",
          text: [
            "Our ",
            { text: "Privacy Policy", href: "/privacy-policy" },
            " explains how we handle personal data collected through the website, including the cookies we use.",
          ],
        },
      ],
    },
    {
      id: "governing-law",
      title: "14. Governing law and jurisdiction",
      blocks: [
        {
          type: "p",
          text: "These Terms and any dispute arising from them or from your use of the website are governed by Swiss law, excluding its conflict-of-law rules. The courts of Zurich, Switzerland, have exclusive jurisdiction.",
        },
        {
          type: "p",
          text: "This is without prejudice to any mandatory consumer protection that the law of the country where you live gives you, including the right to bring proceedings in the courts of that country.",
        },
      ],
    },
    {
      id: "general",
      title: "15. Changes and general terms",
      blocks: [
        {
          type: "p",
          text: "We may update these Terms from time to time; the date at the top shows the latest version, and the version in force when you use the website applies. If any provision is found invalid or unenforceable, the rest remain in effect. Our failure to enforce a provision is not a waiver of it.",
        },
      ],
    },
    {
      id: "contact",
      title: "16. Contact",
      blocks: [
        {
          type: "p",
          text: ["Questions about these Terms? Write to us at ", emailLink, "."],
        },
      ],
    },
  ],
};

import { firm } from "./firm";
import { emailLink, officeCities, type LegalDocument } from "./legal";

/** /privacy-policy: the Privacy Policy (Swiss revFADP, UK GDPR, POPIA). */
export const privacyPolicy: LegalDocument = {
  title: "Privacy Policy",
  description: `How ${firm.name} collects, uses, shares and protects personal data of founders, investors, newsletter subscribers and website visitors, and the rights you have.`,
  path: "/privacy-policy",
  lastUpdated: firm.legalLastUpdated,
  intro: [
    {
      type: "p",
      text: `This Privacy Policy explains how ${firm.name} ("we", "us", "our") collects, uses, shares and protects personal data when you visit our website, subscribe to our newsletter, submit a pitch, register for our investor portal or request access to fund documents. It also explains the rights you have and how to exercise them.`,
    },
    {
      type: "p",
      text: "We work with founders and investors in several countries, so this policy is written to meet the Swiss Federal Act on Data Protection (revFADP), the UK General Data Protection Regulation and Data Protection Act 2018 (together, UK GDPR), and South Africa's Protection of Personal Information Act (POPIA). Where those laws use different words, a \"controller\" under the revFADP and UK GDPR is a \"responsible party\" under POPIA, and a \"data subject\" is you.",
    },
  ],
  sections: [
    {
      id: "who-we-are",
      title: "1. Who we are",
      blocks: [
        {
          type: "p",
          text: `${firm.name} is the controller (under POPIA, the responsible party) for the personal data described in this policy. We operate from offices in ${officeCities}, and our offices share one set of systems and one privacy programme.`,
        },
        {
          type: "p",
          text: [
            "For any question about this policy, or to exercise your rights, contact us at ",
            emailLink,
            ". Please write \"Privacy\" in the subject line so that your message reaches the person responsible for data protection promptly.",
          ],
        },
      ],
    },
    {
      id: "data-we-collect",
      title: "2. The personal data we collect",
      blocks: [
        {
          type: "p",
          text: "We collect only what we need for each activity. Most of it you give us directly; a small amount is recorded automatically when you use the website.",
        },
      ],
      subsections: [
        {
          title: "Newsletter",
          blocks: [
            {
              type: "p",
              text: "Your e-mail address and the date you subscribed. We do not ask for anything else to send you our newsletter.",
            },
            {
              type: "p",
              text: "We use double opt-in: after you subscribe, we e-mail you a link, and you are only on the list once you open it and confirm. The link works once and for 7 days. When you confirm, we keep a record of your consent: the time, the IP address you confirmed from, the page where you signed up, and the sign-up text you agreed to with its version. Addresses that are never confirmed are deleted 30 days after the last confirmation e-mail. Every newsletter carries a link to unsubscribe with one click, without signing in. When you unsubscribe we keep your address, marked as unsubscribed, only to honour your choice, so that it is not added back by mistake; it stays that way unless you subscribe and confirm again.",
            },
          ],
        },
        {
          title: "Pitch submissions",
          blocks: [
            {
              type: "p",
              text: "Your name, e-mail address, company name, funding stage, an optional link to your pitch deck and your message, together with the date of submission. A pitch deck you link to may itself contain personal data about you and your team; we process it only to evaluate your company.",
            },
          ],
        },
        {
          title: "Investor portal accounts",
          blocks: [
            {
              type: "p",
              text: "Your name, e-mail address, optional company, your password (stored only as a one-way cryptographic hash; we never see or keep the password itself), your account status (pending, approved or rejected) and the date of your request. When you use the portal, we record which documents you view or download and when, because fund documents are confidential and we must be able to show who accessed them.",
            },
          ],
        },
        {
          title: "Fund document access requests",
          blocks: [
            {
              type: "p",
              text: "Your name, e-mail address, the fund you are interested in, your confirmation that you are an accredited or qualified investor, and the date of your request. For Fund I you may also give your company and telephone number. For Fund II we send you a personal access link; we store only a hash of the secret it contains, and we record when it is used to view or download documents.",
            },
          ],
        },
        {
          title: "Correspondence",
          blocks: [
            {
              type: "p",
              text: "If you write to us, we keep your message, your contact details and our reply so that we can follow up and keep a record of what was agreed.",
            },
          ],
        },
        {
          title: "Access logs and security data",
          blocks: [
            {
              type: "p",
              text: "Like most websites, our servers record technical data for each request: your IP address, the date and time, the page or file requested, the response status, and your browser's user-agent string. We use it to keep the service running, to detect and block abuse (for example, limiting repeated sign-in or form attempts from one address) and to investigate security incidents.",
            },
          ],
        },
        {
          title: "Data we do not want",
          blocks: [
            {
              type: "p",
              text: "We do not ask for sensitive personal data, such as health information, religious or political views, or data about criminal proceedings. Please do not include it in pitches, messages or uploaded materials.",
            },
          ],
        },
      ],
    },
    {
      id: "purposes",
      title: "3. Why we use your data and our legal bases",
      blocks: [
        {
          type: "p",
          text: "We use personal data only for the purposes below. For each, we name the legal basis under the UK GDPR and the matching condition under POPIA (section 11). Swiss law does not require a legal basis for each activity; we process data in line with the revFADP's principles of lawfulness, good faith, proportionality, purpose limitation and transparency, and where a justification is required we rely on your consent, our overriding interests or the law.",
        },
        {
          type: "ul",
          items: [
            "Sending our newsletter: your consent (UK GDPR Article 6(1)(a); POPIA sections 11(1)(a) and 69). You can withdraw it at any time, and we will stop sending the newsletter.",
            "Reviewing pitches and talking to founders about a possible investment: steps taken at your request before entering into a contract, and our legitimate interest in finding and assessing investment opportunities (UK GDPR Article 6(1)(b) and (f); POPIA section 11(1)(b) and (f)).",
            "Running investor portal accounts and giving approved investors access to documents: performance of our agreement with you (UK GDPR Article 6(1)(b); POPIA section 11(1)(b)).",
            "Handling fund document access requests and checking that documents go only to accredited or qualified investors: our legitimate interest in offering our funds lawfully and compliance with the financial promotion and securities rules that apply to us (UK GDPR Article 6(1)(c) and (f); POPIA section 11(1)(c) and (f)).",
            "Onboarding investors, including identity, anti-money-laundering and sanctions checks where you go on to invest: compliance with legal obligations (UK GDPR Article 6(1)(c); POPIA section 11(1)(c)).",
            "Keeping the website secure, preventing fraud and abuse, and recording access to confidential documents: our legitimate interest in protecting our systems, our investors and our portfolio companies (UK GDPR Article 6(1)(f); POPIA section 11(1)(d) and (f)).",
            "Establishing, exercising or defending legal claims, and answering lawful requests from authorities: legal obligation and legitimate interest (UK GDPR Article 6(1)(c) and (f); POPIA section 11(1)(c) and (f)).",
          ],
        },
        {
          type: "p",
          text: "Where we rely on legitimate interests, we have weighed them against your rights and expectations. We do not make decisions about you based solely on automated processing, and we do not build marketing profiles.",
        },
      ],
    },
    {
      id: "cookies",
      title: "4. Cookies and browser storage",
      blocks: [
        {
          type: "p",
          text: "We use only a small number of cookies, all of them needed for a feature you use. We do not use advertising, analytics or third-party tracking cookies, so we do not ask for cookie consent.",
        },
        {
          type: "table",
          caption: "Cookies set by this website",
          head: ["Cookie", "Purpose", "Duration"],
          rows: [
            ["Theme preference", "Remembers whether you chose the light or dark theme.", "1 year, or until you clear it"],
            [
              "Flash message",
              "Carries a one-time confirmation or error message to the next page, for example after you submit a form.",
              "Up to 60 seconds; deleted once shown",
            ],
            [
              "Investor session",
              "Keeps approved investors and administrators signed in to the portal.",
              "Until you sign out, and never longer than 12 hours",
            ],
            [
              "Fund document access",
              "Remembers that your Fund II access link was validated, so you can open documents without the link each time.",
              "Until your access ends or you clear it",
            ],
          ],
        },
        {
          type: "p",
          text: "We also use your browser's local storage for two values: your theme preference (under the key theme) and, on the Fund II documents page, your access token (under the key fund-ii-access-token). They stay on your device until you clear them. Clearing cookies or local storage signs you out and resets your theme, but does not otherwise affect the website.",
        },
      ],
    },
    {
      id: "sharing",
      title: "5. Who we share data with",
      blocks: [
        { type: "p", text: "We do not sell personal data. We share it only as follows:" },
        {
          type: "ul",
          items: [
            "Service providers who host our website and data, and deliver our e-mails, acting on our instructions under contracts that require confidentiality and security.",
            "Our professional advisers, such as lawyers, auditors and fund administrators, where they need it to advise us or to administer our funds.",
            "Co-investors and portfolio companies, only with your agreement, for example when we introduce a founder to a co-investment partner.",
            "Regulators, courts, law enforcement and tax authorities, where the law requires it or to protect our rights.",
            "A successor, if our business or a fund is reorganised or transferred, under equivalent protection.",
          ],
        },
      ],
    },
    {
      id: "transfers",
      title: "6. International transfers",
      blocks: [
        {
          type: "p",
          text: `Because our team works from ${officeCities}, personal data may be accessed from Switzerland, the United Kingdom and South Africa, and our service providers may process it in the European Economic Area or the United States. Switzerland and the United Kingdom recognise each other as providing adequate protection.`,
        },
        {
          type: "p",
          text: "Where data goes to a country that is not recognised as adequate by the law that applies, we use safeguards that law permits: the European Commission's standard contractual clauses as recognised by the Swiss Federal Data Protection and Information Commissioner, the UK International Data Transfer Agreement or Addendum, and, under POPIA section 72, binding agreements that provide an adequate level of protection. You can ask us for a copy of the relevant safeguards.",
        },
      ],
    },
    {
      id: "retention",
      title: "7. How long we keep data",
      blocks: [
        { type: "p", text: "We keep personal data only for as long as we need it:" },
        {
          type: "ul",
          items: [
            "Newsletter: until you unsubscribe, after which we keep only a record of the opt-out so we do not contact you again. Addresses that are never confirmed: 30 days after the last confirmation e-mail.",
            "Pitches: up to 3 years after our last contact if we do not invest, so we can follow your progress; for the life of our investment if we do.",
            "Investor portal accounts and document access records: for as long as your account is active and then for the period required by accounting, anti-money-laundering and fund record-keeping rules, typically 10 years after the end of the relationship.",
            "Investor portal registrations whose e-mail address is never confirmed: 30 days after the last confirmation e-mail.",
            "Rejected investor requests and fund document access requests that do not lead to an investment: up to 2 years.",
            "Access logs: up to 90 days, or longer where needed to investigate a specific security incident.",
            "Correspondence: as long as it is relevant to our relationship, and in any case no longer than 10 years.",
          ],
        },
        {
          type: "p",
          text: "When the period ends, we delete the data or make it anonymous.",
        },
      ],
    },
    {
      id: "security",
      title: "8. Security",
      blocks: [
        {
          type: "p",
          text: "We protect personal data with technical and organisational measures suited to its sensitivity: encryption in transit, passwords and access tokens stored only as hashes, signed and HttpOnly cookies, limits on repeated sign-in and form attempts, access to the admin portal for authorised staff only, and a log of who opened which confidential document. No system is completely secure; if a breach is likely to put your rights at risk, we will tell you and the competent authority as the law requires.",
        },
      ],
    },
    {
      id: "your-rights",
      title: "9. Your rights",
      blocks: [
        { type: "p", text: "Subject to the conditions and exceptions of the law that applies to you, you have the right to:" },
        {
          type: "ul",
          items: [
            "be informed about and get access to the personal data we hold about you;",
            "have inaccurate or incomplete data corrected;",
            "have your data deleted, or its use restricted;",
            "object to processing based on our legitimate interests, and to direct marketing at any time;",
            "receive data you gave us in a structured, machine-readable format, or have it sent to another organisation (data portability);",
            "withdraw your consent at any time, without affecting processing that took place before;",
            "not be subject to a decision based solely on automated processing.",
          ],
        },
        {
          type: "p",
          text: [
            "To exercise a right, write to ",
            emailLink,
            ". We may ask you to confirm your identity. We answer within one month (30 days under the revFADP), and usually free of charge.",
          ],
        },
      ],
    },
    {
      id: "complaints",
      title: "10. Complaints",
      blocks: [
        {
          type: "p",
          text: "We would like the chance to resolve any concern first, so please contact us. You also have the right to complain to a data protection authority, in particular:",
        },
        {
          type: "ul",
          items: [
            "in Switzerland, the Federal Data Protection and Information Commissioner (FDPIC), www.edoeb.admin.ch;",
            "in the United Kingdom, the Information Commissioner's Office (ICO), www.ico.org.uk;",
            "in South Africa, the Information Regulator, www.inforegulator.org.za.",
          ],
        },
      ],
    },
    {
      id: "children",
      title: "11. Children",
      blocks: [
        {
          type: "p",
          text: "Our website and services are intended for adults working in business and investment. We do not knowingly collect personal data from anyone under 18.",
        },
      ],
    },
    {
      id: "changes",
      title: "12. Changes to this policy",
      blocks: [
        {
          type: "p",
          text: "We may update this policy when our services or the law change. The date at the top shows the latest version. If a change materially affects how we use data you have already given us, we will tell investor portal users and newsletter subscribers by e-mail before it takes effect.",
        },
      ],
    },
    {
      id: "contact",
      title: "13. Contact",
      blocks: [
        {
          type: "p",
          text: [`${firm.name}, offices in ${officeCities}. E-mail: `, emailLink, "."],
        },
      ],
    },
  ],
};

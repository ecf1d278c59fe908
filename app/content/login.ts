import { firm } from "./firm";

/** /login: the placeholder client login (SPEC.md §2, "Client login"). */
export const loginContent = {
  title: "Client Login",
  intro: "Sign in to your client account.",
  description: `Sign in to your ${firm.name} client account.`,
  username: "Username",
  password: "Password",
  submit: "Sign In",
  requestText: "Don't have an account yet?",
  requestAccess: "Request access",
  investorText: "Limited partners and approved investors:",
  investorLink: "go to the Investor Portal",
  toast: { title: "Login Attempted", description: "Authentication system coming soon." },
} as const;

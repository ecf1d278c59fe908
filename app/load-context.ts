/** What the server passes to every loader and action (see server/app.ts). */
export type LoadContext = {
  /** The client's IP address (from X-Forwarded-For only when TRUST_PROXY is set). */
  clientAddress: string;
};

declare module "react-router" {
  interface AppLoadContext extends LoadContext {}
}

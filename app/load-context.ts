/** What the server passes to every loader and action (see server/app.ts). */
export type LoadContext = {
  /** The client's IP address (from X-Forwarded-For only when the request came from a proxy TRUST_PROXY names). */
  clientAddress: string;
};

declare module "react-router" {
  interface AppLoadContext extends LoadContext {}
}

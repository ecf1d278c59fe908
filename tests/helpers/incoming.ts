import type { IncomingMessage } from "node:http";

/** A minimal node IncomingMessage: method, url, lower-cased headers and a socket address. */
export function incoming(
  options: {
    method?: string;
    url?: string;
    headers?: Record<string, string | string[]>;
    remoteAddress?: string | undefined;
  } = {},
): IncomingMessage {
  const { method = "GET", url = "/", headers = {} } = options;
  const remoteAddress = "remoteAddress" in options ? options.remoteAddress : "198.51.100.20";
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { method, url, headers: lower, socket: { remoteAddress } } as unknown as IncomingMessage;
}

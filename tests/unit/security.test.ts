import { describe, expect, it } from "vitest";
import { clientAddress, isCrossOriginRequest, loggablePath } from "../../server/security";
import { incoming } from "../helpers/incoming";

const APP_ORIGIN = "https://www.lumenridge.example";
const HOST = "www.lumenridge.example";

function crossOrigin(method: string, headers: Record<string, string>) {
  return isCrossOriginRequest(incoming({ method, headers: { host: HOST, ...headers } }), APP_ORIGIN);
}

describe("isCrossOriginRequest", () => {
  it.each(["GET", "HEAD", "OPTIONS"])("always allows %s, even from another site", (method) => {
    expect(crossOrigin(method, { "sec-fetch-site": "cross-site", origin: "https://evil.example" })).toBe(false);
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])("refuses a cross-site %s (Sec-Fetch-Site: cross-site)", (method) => {
    expect(crossOrigin(method, { "sec-fetch-site": "cross-site" })).toBe(true);
  });

  it("refuses POST with Sec-Fetch-Site: same-site (a sibling subdomain)", () => {
    expect(crossOrigin("POST", { "sec-fetch-site": "same-site" })).toBe(true);
  });

  it("allows POST with Sec-Fetch-Site: same-origin", () => {
    expect(crossOrigin("POST", { "sec-fetch-site": "same-origin" })).toBe(false);
  });

  it("allows POST with Sec-Fetch-Site: none (typed by the user)", () => {
    expect(crossOrigin("POST", { "sec-fetch-site": "none" })).toBe(false);
  });

  it("trusts Sec-Fetch-Site over a matching Origin", () => {
    expect(crossOrigin("POST", { "sec-fetch-site": "cross-site", origin: APP_ORIGIN })).toBe(true);
  });

  it("refuses POST without Sec-Fetch-Site from a foreign Origin", () => {
    expect(crossOrigin("POST", { origin: "https://evil.example" })).toBe(true);
  });

  it("refuses POST with an opaque Origin (null)", () => {
    expect(crossOrigin("POST", { origin: "null" })).toBe(true);
  });

  it("allows POST whose Origin equals the Host header", () => {
    expect(
      isCrossOriginRequest(incoming({ method: "POST", headers: { host: "localhost:3000", origin: "http://localhost:3000" } }), APP_ORIGIN),
    ).toBe(false);
  });

  it("allows POST whose Origin equals APP_URL (behind a proxy that rewrites Host)", () => {
    expect(
      isCrossOriginRequest(incoming({ method: "POST", headers: { host: "127.0.0.1:3000", origin: APP_ORIGIN } }), APP_ORIGIN),
    ).toBe(false);
  });

  it("refuses an Origin whose port differs from the Host", () => {
    expect(crossOrigin("POST", { origin: `https://${HOST}:8443` })).toBe(true);
  });

  it("allows POST with neither Sec-Fetch-Site nor Origin (curl, server-to-server)", () => {
    expect(crossOrigin("POST", {})).toBe(false);
  });
});

describe("clientAddress", () => {
  const behindProxy = incoming({
    headers: { "x-forwarded-for": "10.0.0.1, 203.0.113.7" },
    remoteAddress: "127.0.0.1",
  });

  it("ignores X-Forwarded-For unless the proxy is trusted", () => {
    expect(clientAddress(behindProxy, false)).toBe("127.0.0.1");
  });

  it("uses the last X-Forwarded-For hop when the proxy is trusted", () => {
    expect(clientAddress(behindProxy, true)).toBe("203.0.113.7");
  });

  it("falls back to the socket address when a trusted proxy sets no header", () => {
    expect(clientAddress(incoming({ remoteAddress: "198.51.100.9" }), true)).toBe("198.51.100.9");
    expect(clientAddress(incoming({ headers: { "x-forwarded-for": " , " }, remoteAddress: "198.51.100.9" }), true)).toBe(
      "198.51.100.9",
    );
  });

  it("says 'unknown' when the socket has no address", () => {
    expect(clientAddress(incoming({ remoteAddress: undefined }), false)).toBe("unknown");
  });
});

describe("loggablePath", () => {
  it("masks an access token in the query", () => {
    const logged = loggablePath("/fund-ii/documents?token=c2VjcmV0LXRva2Vu&x=1");
    expect(logged).not.toContain("c2VjcmV0LXRva2Vu");
    expect(logged).toBe("/fund-ii/documents?token=***&x=1");
  });

  it.each(["password", "accessToken", "client_secret"])("masks the %s parameter", (key) => {
    const logged = loggablePath(`/x?${key}=hunter22`);
    expect(logged).not.toContain("hunter22");
  });

  it("keeps paths without a query and harmless parameters as they are", () => {
    expect(loggablePath("/portfolio")).toBe("/portfolio");
    expect(loggablePath("/portfolio?sector=Space")).toBe("/portfolio?sector=Space");
    expect(loggablePath(undefined)).toBe("/");
  });
});

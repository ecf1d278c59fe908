import { describe, expect, it } from "vitest";
import { parseEnv } from "~/modules/config/env.server";
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
  /** TRUST_PROXY as the environment gives it. */
  const trust = (value: string | undefined) => parseEnv({ TRUST_PROXY: value }).TRUST_PROXY;
  const behindProxy = incoming({
    headers: { "x-forwarded-for": "10.0.0.1, 203.0.113.7" },
    remoteAddress: "127.0.0.1",
  });

  it("ignores X-Forwarded-For unless the proxy is trusted", () => {
    expect(clientAddress(behindProxy, trust(undefined))).toBe("127.0.0.1");
    expect(clientAddress(behindProxy, trust("0"))).toBe("127.0.0.1");
  });

  it("uses the last X-Forwarded-For hop when the proxy is trusted", () => {
    expect(clientAddress(behindProxy, trust("1"))).toBe("203.0.113.7");
  });

  it("falls back to the socket address when a trusted proxy sets no header", () => {
    expect(clientAddress(incoming({ remoteAddress: "127.0.0.1" }), trust("1"))).toBe("127.0.0.1");
    expect(clientAddress(incoming({ headers: { "x-forwarded-for": " , " }, remoteAddress: "127.0.0.1" }), trust("1"))).toBe("127.0.0.1");
  });

  it("says 'unknown' when the socket has no address", () => {
    expect(clientAddress(incoming({ remoteAddress: undefined }), trust(undefined))).toBe("unknown");
  });

  describe("trusts X-Forwarded-For only from the peers TRUST_PROXY names (L9)", () => {
    const from = (remoteAddress: string, forwardedFor: string) => incoming({ headers: { "x-forwarded-for": forwardedFor }, remoteAddress });

    it.each([
      ["1", "198.51.100.20"],
      ["true", "192.0.2.77"],
      ["1", "::ffff:198.51.100.20"],
      ["1", "2001:db8::5"],
      ["10.0.0.0/8", "192.0.2.77"],
      ["192.0.2.1", "192.0.2.2"],
      ["10.0.0.0/8, 2001:db8:1::/48", "2001:db8:2::1"],
    ])("TRUST_PROXY=%j: a peer at %s cannot set the client address", (value, peer) => {
      expect(clientAddress(from(peer, "203.0.113.99"), trust(value))).toBe(peer);
    });

    it.each([
      ["1", "127.0.0.1"],
      ["1", "127.8.9.10"],
      ["1", "::1"],
      ["1", "::ffff:127.0.0.1"],
      ["10.0.0.0/8", "10.20.30.40"],
      ["192.0.2.1, 2001:db8:1::/48", "2001:db8:1::9"],
    ])("TRUST_PROXY=%j: a peer at %s sets it", (value, peer) => {
      expect(clientAddress(from(peer, "203.0.113.99"), trust(value))).toBe("203.0.113.99");
    });

    it("the client is the right-most hop that is not a trusted proxy", () => {
      const chain = from("10.0.0.2", "198.51.100.1, 203.0.113.5, 10.9.8.7, 127.0.0.1");
      expect(clientAddress(chain, trust("10.0.0.0/8, 127.0.0.0/8"))).toBe("203.0.113.5");
      // With loopback alone trusted, the hop 10.9.8.7 is not ours: the socket peer (10.0.0.2) is not trusted either.
      expect(clientAddress(chain, trust("1"))).toBe("10.0.0.2");
    });
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

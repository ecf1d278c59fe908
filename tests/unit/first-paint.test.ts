import { describe, expect, it } from "vitest";
import { withoutModulePreloads } from "~/modules/http/first-paint";

const page = (head: string, body = "<p>Hello</p>") => `<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`;

describe("withoutModulePreloads", () => {
  it("leaves the stylesheet, icon and meta tags and drops every module preload of the head", () => {
    const html = page(
      '<meta charSet="utf-8"/><link rel="icon" href="/favicon.svg"/><link rel="modulepreload" href="/assets/entry.client-a.js"/>' +
        '<link rel="modulepreload" href="/assets/root-b.js"/><script>theme()</script><link rel="stylesheet" href="/assets/root-c.css"/>',
    );
    expect(withoutModulePreloads(html)).toBe(
      page('<meta charSet="utf-8"/><link rel="icon" href="/favicon.svg"/><script>theme()</script><link rel="stylesheet" href="/assets/root-c.css"/>'),
    );
  });

  it("keeps the module script in the body that loads the page's modules", () => {
    const body = '<main>Text</main><script type="module" async="">import * as route0 from "/assets/root-b.js";</script>';
    expect(withoutModulePreloads(page('<link rel="modulepreload" href="/assets/root-b.js"/>', body))).toBe(page("", body));
  });

  it("changes nothing after the head", () => {
    const body = '<link rel="modulepreload" href="/assets/late.js"/>';
    expect(withoutModulePreloads(page("", body))).toBe(page("", body));
  });
});

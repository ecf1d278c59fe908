import { firm } from "~/content/firm";
import { watermarkCopy } from "~/content/watermark";
import { pageCsp } from "../http/csp";
import type { AppError } from "../http/app-error";

/**
 * What a browser gets when an investor opens or downloads a watermarked
 * document while watermarks are unavailable (availability.server.ts): a 503
 * page of its own, since the view and download links are resource routes (a
 * new tab, or a download without JavaScript) outside the portal's frame. Other
 * clients (fetch, the JSON API) get the AppError's JSON. Plain HTML with a
 * little inline style, no script; the link leads back to the investor's home.
 */

const LP_HOME = "/lp/dashboard";

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
body { margin: 0; padding: 4rem 1.5rem; line-height: 1.5; }
main { max-width: 36rem; margin: 0 auto; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 1rem; }
p { margin: 0 0 1rem; }
a { color: #1d4ed8; font-weight: 600; }
@media (prefers-color-scheme: dark) { a { color: #93c5fd; } }
`.trim();

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Whether the request is a browser asking for a page (a navigation), not fetch or an API client. */
export function wantsHtml(request: Request): boolean {
  return /\btext\/html\b/i.test(request.headers.get("accept") ?? "");
}

export function watermarkUnavailablePage(error: AppError, method: string): Response {
  const copy = watermarkCopy.unavailable.page;
  const html = [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(`${copy.title} | ${firm.name}`)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    "<main>",
    `<h1>${escapeHtml(copy.title)}</h1>`,
    ...copy.lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    `<p><a href="${LP_HOME}">${escapeHtml(copy.back)}</a></p>`,
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
  return new Response(method === "HEAD" ? null : html, {
    status: error.status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": pageCsp(html),
      "Cache-Control": "no-store",
    },
  });
}

import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { pageCsp } from "~/modules/http/csp";
import { withoutModulePreloads } from "~/modules/http/first-paint";
import { logError } from "~/modules/logging/log.server";

export const streamTimeout = 5_000;

/**
 * Pages are rendered completely before they are sent (they are small), so the
 * Content-Security-Policy can list the hashes of the page's inline scripts,
 * and the module preloads can be left out of the head (first-paint.ts).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      onAllReady() {
        shellRendered = true;
        const body = new PassThrough();
        const chunks: Buffer[] = [];
        body.on("data", (chunk: Buffer) => chunks.push(chunk));
        body.on("end", () => {
          const html = withoutModulePreloads(Buffer.concat(chunks).toString("utf8"));
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.set("Content-Security-Policy", pageCsp(html, { dev: import.meta.env.DEV }));
          resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
        });
        body.on("error", reject);
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) logError(error, "render failed");
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  logError(error, `${request.method} ${new URL(request.url).pathname} failed`);
};

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";

/**
 * Start the site from the source tree (`npm run dev`, run by tsx).
 *
 * - Development: a Vite dev server in middleware mode loads server/start.ts
 *   and, per request, the route build, through one module graph, so route
 *   edits apply without a restart and the server and the routes share every
 *   module (the database handle, the log's request context, …).
 * - NODE_ENV=production: nothing here is compiled or loaded from source; it
 *   imports the compiled server (BUILD_DIR/server/index.js, default build/),
 *   exactly what `npm start` runs with plain `node`.
 */
if (fs.existsSync(".env")) process.loadEnvFile(".env");

if (process.env.NODE_ENV === "production") {
  const entry = path.resolve(process.env.BUILD_DIR ?? "build", "server/index.js");
  if (!fs.existsSync(entry)) {
    console.error(`\n${entry} does not exist: run \`npm run build\` first.\n`);
    process.exit(1);
  }
  await import(pathToFileURL(entry).href);
} else {
  await startDevServer();
}

async function startDevServer() {
  const { createServer } = await import("vite");
  const vite: ViteDevServer = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  const { startServer } = (await vite.ssrLoadModule("/server/start.ts")) as typeof import("./start");
  await startServer({
    mode: "development",
    build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    serveStatic: (req, res, next) => vite.middlewares(req, res, next),
  });
}


import { fileURLToPath } from "node:url";
import * as build from "virtual:react-router/server-build";
import { logError } from "../app/modules/logging/log.server";
import { startServer } from "./start";
import { staticFiles } from "./static-files";

/**
 * The production entry. `npm run build` compiles it, with the routes it
 * imports through `virtual:react-router/server-build`, into
 * build/server/index.js: one module graph, run by plain `node`
 * (decision 016). The client files sit next to it, in ../client.
 */
const clientDir = fileURLToPath(new URL("../client", import.meta.url));

startServer({ build, mode: "production", serveStatic: staticFiles(clientDir) }).catch((error: unknown) => {
  logError(error, "start-up failed");
  process.exit(1);
});

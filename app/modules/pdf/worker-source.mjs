/**
 * The PDF worker from the sources (Vitest, tsx, the Vite dev server): a
 * worker thread does not inherit the loader its parent runs TypeScript with,
 * so this registers tsx (with the project's tsconfig, for the `~/` paths) and
 * then loads worker.ts. The compiled server runs build/server/pdf-worker.js
 * instead (pdf.server.ts chooses).
 */
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

register({ tsconfig: fileURLToPath(new URL("../../../tsconfig.json", import.meta.url)) });
await import("./worker.ts");

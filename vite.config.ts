import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * Entries of the server build (decision 016). `index` is the HTTP server with
 * the routes (server/main.ts imports `virtual:react-router/server-build`); the
 * operational scripts are entries of the same build, so they share its chunks
 * and run with plain `node` where only the dependencies are installed.
 */
const SERVER_ENTRIES = {
  index: "server/main.ts",
  "admin-create": "scripts/admin-create.ts",
  "admin-reset-2fa": "scripts/admin-reset-2fa.ts",
  "admin-reseal-2fa": "scripts/admin-reseal-2fa.ts",
  "db-backup": "scripts/db-backup.ts",
  "db-restore": "scripts/db-restore.ts",
  "db-replicate": "scripts/db-replicate.ts",
  "storage-replicate": "scripts/storage-replicate.ts",
  "storage-restore": "scripts/storage-restore.ts",
  drill: "scripts/drill.ts",
  seed: "scripts/seed.ts",
  // The PDF worker thread (decision 041): modules/pdf/pdf.server.ts starts build/server/pdf-worker.js.
  "pdf-worker": "app/modules/pdf/worker.ts",
};

/**
 * React Router names the server build's one entry `index.js`; with several
 * entries each keeps its own name, and shared code goes to chunks/.
 */
function namedServerEntries(): Plugin {
  return {
    name: "lumen-ridge:named-server-entries",
    configEnvironment(name, config) {
      if (name !== "ssr") return;
      const output = config.build?.rollupOptions?.output;
      if (output && !Array.isArray(output)) {
        output.entryFileNames = "[name].js";
        output.chunkFileNames = "chunks/[name]-[hash].js";
      }
    },
  };
}

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), namedServerEntries()],
  environments: {
    ssr: { build: { rollupOptions: { input: SERVER_ENTRIES } } },
  },
  // Bundle these into the server build: only the icons and primitives we use are
  // loaded, instead of every lucide icon module at start (tens of MB of RSS); and
  // only the date-fns functions, zod and drizzle pieces we use, instead of Node
  // resolving and compiling each package's every module (date-fns alone opened 314
  // files). A start took 1.4 s of CPU, now 0.7 s: the e2e and hardening runs start
  // dozens of servers. Conform comes along so that the server graph has one zod.
  ssr: { noExternal: ["lucide-react", "radix-ui", /^@radix-ui\//, "date-fns", "@date-fns/tz", "zod", "drizzle-orm", /^@conform-to\//] },
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
});

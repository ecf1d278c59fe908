import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const INCLUDE = ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts"];
/**
 * Files that need a module graph of their own: a `vi.mock` replaces a module for
 * the modules that file loads, which a shared graph may already hold (or keep).
 * A file that adds a `vi.mock` joins this list.
 */
const OWN_MODULE_GRAPH = ["tests/integration/upload-slow-disk.test.ts"];

// Deliberately not based on vite.config.ts: the reactRouter() plugin does not run under Vitest.
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    environment: "node",
    // Runs before every file, shared graph or not: a fresh SQLite file, environment, rate limits and mail
    // transport for each (tests/setup.ts).
    setupFiles: ["tests/setup.ts"],
    // Two files at a time on two cores (Vitest's default is one fewer than the cores): much of a file's time
    // is bcrypt on libuv's threads, child processes and file I/O, so a second file fills the gaps.
    maxWorkers: 2,
    testTimeout: 10_000,
    projects: [
      {
        extends: true,
        // The files share each worker's module graph: loading the app's modules once per worker instead of
        // once per file took a third off the run (104 → 73 s on two cores). What a file changes it puts back
        // (tests/setup.ts and the files' own afterEach); the suite passes in shuffled file orders
        // (`npx vitest run --sequence.shuffle.files`).
        test: { name: "shared", include: INCLUDE, exclude: [...configDefaults.exclude, ...OWN_MODULE_GRAPH], isolate: false },
      },
      { extends: true, test: { name: "own", include: OWN_MODULE_GRAPH, isolate: true } },
    ],
  },
});

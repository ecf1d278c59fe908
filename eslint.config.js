// @ts-check
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * Lint: the promise rules that catch an unawaited check (a guard that is
 * never awaited lets anyone through), React's hook rules, and the import
 * floors of ARCHITECTURE.md: nothing imports a route; modules import no
 * component; components import no server module; content imports no module,
 * component or route; db/ imports nothing of the app. `npm run lint` fails on
 * any warning.
 */
const serverOnly = {
  group: ["**/*.server", "**/*.server.ts", "**/*.server.tsx", "**/db/*", "~/../db/*"],
  message: "UI code runs in the browser too: server-only modules are for loaders, actions and other modules.",
};
const routes = {
  group: ["~/routes/**", "**/routes/**", "~/root", "**/app/root"],
  message: "Nothing imports a route module (app/root.tsx included): move the shared piece into a module or component.",
};
const modules = { group: ["~/modules/**", "**/modules/**"], message: "Content is copy: it imports no module. A text that states a rule's number takes it as a parameter." };
const app = { group: ["~/**", "**/app/**"], message: "db/ is the schema and the connection to a file: it imports nothing of the app (the app names the file: modules/db/connection.server.ts)." };
const components = {
  group: ["~/components/**", "**/components/**"],
  message: "Domain modules stay free of UI: move the shared piece into the module and import it from the component.",
};

export default tseslint.config(
  {
    ignores: ["build/**", "build-*/**", ".react-router/**", "node_modules/**", "test-results/**", "playwright-report/**", "storage/**"],
  },
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    // Playwright's fixtures call `use` too: the hook rules are for the app's React code.
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: ["app/modules/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [routes, components] }] },
  },
  {
    files: ["app/components/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [routes, serverOnly] }] },
  },
  {
    files: ["app/content/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [routes, serverOnly, modules, components] }] },
  },
  {
    files: ["db/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [app] }] },
  },
);

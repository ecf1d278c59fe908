// @ts-check
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * Lint: the promise rules that catch an unawaited check (a guard that is
 * never awaited lets anyone through), React's hook rules, and the import
 * floors of ARCHITECTURE.md. `npm run lint` fails on any warning.
 */
const serverOnly = {
  group: ["**/*.server", "**/*.server.ts", "**/*.server.tsx", "**/db/*", "~/../db/*"],
  message: "UI code runs in the browser too: server-only modules are for loaders, actions and other modules.",
};
const routes = { group: ["~/routes/**", "**/routes/**"], message: "Nothing imports a route: move the shared piece into a module or component." };
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
    files: ["app/components/**/*.{ts,tsx}", "app/content/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [routes, serverOnly] }] },
  },
);

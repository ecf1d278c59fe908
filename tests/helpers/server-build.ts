import os from "node:os";
import type { ServerBuild } from "react-router";

type RouteModule = Record<string, unknown>;

/**
 * A minimal React Router build for the HTTP pipeline's tests (server/app.ts
 * with everything before the app): a root, then `routes` (id → path and
 * module) under it. No document rendering: a page request is the entry's 500.
 */
export function fakeServerBuild(routes: Record<string, { path: string; module: RouteModule }>): ServerBuild {
  return {
    entry: { module: { default: () => new Response("no documents here", { status: 500 }) } },
    routes: {
      root: { id: "root", path: "", module: {} },
      ...Object.fromEntries(Object.entries(routes).map(([id, route]) => [id, { id, parentId: "root", ...route }])),
    },
    assets: { entry: { module: "/entry.js", imports: [] }, routes: {}, url: "/manifest.js", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: os.tmpdir(),
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

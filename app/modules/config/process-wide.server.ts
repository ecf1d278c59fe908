/**
 * One value per process for state that server/ and the routes both use: the
 * database handle, the log's request context, the mail queue's run state.
 *
 * In production the HTTP server, the routes and the scripts are one compiled
 * module graph (decision 016), so a module-level value exists once and this
 * simply returns `create()`. Under the dev server, Vite re-executes an edited
 * module and its importers for the routes, while the listener keeps the copies
 * it started with; there the value is kept on `globalThis`, so both copies
 * share it. Production never takes that path, so a second module graph there
 * would show (a log line without its request id) instead of being hidden.
 */
export function processWide<T>(name: string, create: () => T): T {
  if (process.env.NODE_ENV === "production") return create();
  const store = globalThis as { [key: symbol]: unknown };
  const key = Symbol.for(`lumen-ridge.${name}`);
  if (!(key in store)) store[key] = create();
  return store[key] as T;
}

import type { LedgerKind } from "./ledger.server";

/** Which ledger a /api/capital-calls… or /api/distributions… request is about (one route module serves both). */
export function ledgerKindOf(request: Request): LedgerKind {
  return new URL(request.url).pathname.startsWith("/api/capital-calls") ? "call" : "distribution";
}

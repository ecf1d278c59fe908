import { replicationReadiness } from "../replication/status.server";
import { watermarkReadiness } from "../watermark/availability.server";

/**
 * What /readyz reports beside its checks (server/app.ts): facts an operator
 * wants at a glance that do not make the app unready, such as a feature whose
 * external program is missing or the replication lag. Each module that owns
 * such a fact exports one function; this is the one list of them.
 */
export function readinessDetails(): Record<string, unknown> {
  return { ...watermarkReadiness(), ...replicationReadiness() };
}

/** /readyz's replication details (issue 26 §1): filled in by the replication module. */
export function replicationReadiness(): Record<string, unknown> {
  return {};
}

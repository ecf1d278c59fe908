/** /readyz's watermark details (issue 26 §7): filled in by the watermark module. */
export function watermarkReadiness(): Record<string, unknown> {
  return {};
}

/**
 * The soak's trend: the least-squares slope of a measure over time, in units
 * per hour. Samples whose value is missing (null) are left out.
 */

export type Point = { seconds: number; value: number | null };

/**
 * Least-squares slope of value over x: Σ(x − x̄)(y − ȳ) / Σ(x − x̄)². Null
 * with fewer than two points or when every x is the same (no line to fit).
 */
export function leastSquaresSlope(points: ReadonlyArray<readonly [x: number, y: number]>): number | null {
  const n = points.length;
  if (n < 2) return null;
  let sumX = 0;
  let sumY = 0;
  for (const [x, y] of points) {
    sumX += x;
    sumY += y;
  }
  const meanX = sumX / n;
  const meanY = sumY / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - meanX) * (y - meanY);
    sxx += (x - meanX) ** 2;
  }
  return sxx === 0 ? null : sxy / sxx;
}

/** Slope per hour of points taken at `seconds` since the start. */
export function slopePerHour(points: ReadonlyArray<Point>): number | null {
  const xy = points.filter((p): p is { seconds: number; value: number } => p.value !== null && Number.isFinite(p.value)).map((p) => [p.seconds / 3600, p.value] as const);
  return leastSquaresSlope(xy);
}

import { describe, expect, test } from "vitest";
import { leastSquaresSlope, slopePerHour } from "../../soak/trend";

/** The soak's trend (npm run soak): the least-squares slope of a measure, per hour. */
describe("soak trend", () => {
  test("points on a line give its slope", () => {
    expect(leastSquaresSlope([[0, 3], [1, 5], [2, 7], [10, 23]])).toBeCloseTo(2, 12);
    expect(leastSquaresSlope([[0, 10], [4, 2]])).toBeCloseTo(-2, 12);
  });

  test("scatter around a line: the least-squares fit, not the first-to-last difference", () => {
    // (nΣxy − ΣxΣy) / (nΣx² − (Σx)²) = (5·66 − 15·20) / (5·55 − 15²) = 0.6; first to last would say 0.75.
    expect(leastSquaresSlope([[1, 2], [2, 4], [3, 5], [4, 4], [5, 5]])).toBeCloseTo(0.6, 12);
    // A saw-tooth that ends higher: (4·4 − 6·2) / (4·14 − 6²) = 0.2; first to last would say 0.33.
    expect(leastSquaresSlope([[0, 0], [1, 1], [2, 0], [3, 1]])).toBeCloseTo(0.2, 12);
  });

  test("a flat measure has slope 0; one point or one moment has none", () => {
    expect(leastSquaresSlope([[0, 5], [1, 5], [2, 5]])).toBe(0);
    expect(leastSquaresSlope([[3, 5]])).toBeNull();
    expect(leastSquaresSlope([])).toBeNull();
    expect(leastSquaresSlope([[2, 1], [2, 9]])).toBeNull();
  });

  test("per hour from seconds, leaving out missing values", () => {
    // +1 MB every 10 s is +360 MB an hour; the sample without a value (the probe silent) does not count.
    const points = [0, 10, 20, 30].map((seconds) => ({ seconds, value: 100 + seconds / 10 }));
    expect(slopePerHour([...points, { seconds: 40, value: null }])).toBeCloseTo(360, 9);
    expect(slopePerHour([{ seconds: 0, value: 1 }, { seconds: 10, value: null }])).toBeNull();
  });
});

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { allocate, allocateLines, type AllocationShare } from "~/modules/capital/allocation";

/**
 * Allocation (DESIGN.md §10): a fund-level amount split pro rata to the
 * commitments by the largest-remainder rule. The shares add up to the cent,
 * none is a cent or more from exact, and the input order never matters: ties go
 * to the larger commitment, then the smaller id.
 */

const shares = (entries: [string, bigint][]): AllocationShare[] => entries.map(([id, weight]) => ({ id, weight }));

/** Commitments: distinct ids, weights from a cent to a billion, a few zeros among them. */
const commitments = fc
  .uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 30 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id) =>
        fc.record({ id: fc.constant(id), weight: fc.oneof({ weight: 1, arbitrary: fc.constant(0n) }, { weight: 9, arbitrary: fc.bigInt({ min: 1n, max: 100_000_000_000n }) }) }),
      ),
    ),
  )
  .filter((list) => list.some((share) => share.weight > 0n));
/** Amounts from nothing to ten billion in cents, small ones (where remainders decide) often. */
const amounts = fc.oneof(fc.bigInt({ min: 0n, max: 1_000n }), fc.bigInt({ min: 0n, max: 1_000_000_000_000n }));

describe("allocate: properties", () => {
  test("the shares add up exactly", () => {
    fc.assert(
      fc.property(amounts, commitments, (amount, list) => {
        let sum = 0n;
        for (const share of allocate(amount, list).values()) sum += share;
        expect(sum).toBe(amount);
      }),
    );
  });

  test("every share is less than one minor unit from its exact value", () => {
    fc.assert(
      fc.property(amounts, commitments, (amount, list) => {
        const total = list.reduce((sum, share) => sum + share.weight, 0n);
        const result = allocate(amount, list);
        for (const { id, weight } of list) {
          // |share − amount × weight ÷ total| < 1, multiplied through by total.
          const gap = result.get(id)! * total - amount * weight;
          expect(gap < total && gap > -total, `${id}: gap ${gap} of ${total}`).toBe(true);
          expect(result.get(id)! >= 0n).toBe(true);
        }
      }),
    );
  });

  test("the input order never matters", () => {
    fc.assert(
      fc.property(amounts, commitments, fc.infiniteStream(fc.double({ noNaN: true })), (amount, list, keys) => {
        const shuffled = list
          .map((share) => ({ share, key: keys.next().value as number }))
          .sort((a, b) => a.key - b.key)
          .map(({ share }) => share);
        const byId = (map: Map<string, bigint>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        expect(byId(allocate(amount, shuffled))).toEqual(byId(allocate(amount, list)));
      }),
    );
  });

  test("the answer keeps the input order and every id, zero weights included", () => {
    fc.assert(
      fc.property(amounts, commitments, (amount, list) => {
        const result = allocate(amount, list);
        expect([...result.keys()]).toEqual(list.map((share) => share.id));
        for (const { id, weight } of list) if (weight === 0n) expect(result.get(id)).toBe(0n);
      }),
    );
  });
});

describe("allocate: examples", () => {
  test("three equal commitments and 100 cents: 34/33/33, the extra cent to the smallest id", () => {
    const result = allocate(
      100n,
      shares([
        ["c", 500n],
        ["a", 500n],
        ["b", 500n],
      ]),
    );
    expect([...result]).toEqual([
      ["c", 33n],
      ["a", 34n],
      ["b", 33n],
    ]);
  });

  test("ids compare as plain strings", () => {
    const result = allocate(
      1n,
      shares([
        ["entity-9", 1n],
        ["entity-10", 1n],
      ]),
    );
    expect(result.get("entity-10")).toBe(1n); // "entity-10" < "entity-9"
  });

  test("a larger commitment wins a tie on the remainder, before the id", () => {
    // Exact shares 0.5 and 1.5: floors 0 and 1, both remainders ½, one cent left.
    const result = allocate(
      2n,
      shares([
        ["a", 1n],
        ["z", 3n],
      ]),
    );
    expect(Object.fromEntries(result)).toEqual({ a: 0n, z: 2n });
  });

  test("the largest remainder wins over a larger commitment", () => {
    // Exact: 10 × 7/13 = 5.38…, 10 × 6/13 = 4.61…: the smaller commitment has the larger remainder.
    expect(
      Object.fromEntries(
        allocate(
          10n,
          shares([
            ["big", 7n],
            ["small", 6n],
          ]),
        ),
      ),
    ).toEqual({ big: 5n, small: 5n });
  });

  test("a fund-level call over real commitments", () => {
    // $1,000,000.01 over commitments of $5m, $3m and $2m: exact 500,000.005 / 300,000.003 / 200,000.002.
    const result = allocate(
      100_000_001n,
      shares([
        ["lp-1", 500_000_000n],
        ["lp-2", 300_000_000n],
        ["lp-3", 200_000_000n],
      ]),
    );
    expect(Object.fromEntries(result)).toEqual({ "lp-1": 50_000_001n, "lp-2": 30_000_000n, "lp-3": 20_000_000n });
  });

  test("nothing to split gives every share zero", () => {
    expect(Object.fromEntries(allocate(0n, shares([["a", 1n], ["b", 2n]])))).toEqual({ a: 0n, b: 0n });
  });

  test("a single share takes all", () => {
    expect(allocate(12_345n, shares([["only", 7n]])).get("only")).toBe(12_345n);
  });

  test("refuses what cannot be split", () => {
    expect(() => allocate(100n, [])).toThrow(/no shares/);
    expect(() => allocate(100n, shares([["a", 0n], ["b", 0n]]))).toThrow(/zero/);
    expect(() => allocate(-1n, shares([["a", 1n]]))).toThrow(/negative amount/);
    expect(() => allocate(100n, shares([["a", -1n], ["b", 5n]]))).toThrow(/Negative weight/);
    expect(() => allocate(100n, shares([["a", 1n], ["a", 2n]]))).toThrow(/Duplicate/);
  });
});

describe("allocateLines", () => {
  const three = shares([
    ["c", 1n],
    ["a", 1n],
    ["b", 1n],
  ]);

  test("splits each line on its own; per entity the lines in order and their total", () => {
    const result = allocateLines([{ amount: 100n }, { amount: 1n }, { amount: 0n }], three);
    expect([...result.keys()]).toEqual(["c", "a", "b"]);
    expect(result.get("a")).toEqual({ total: 35n, lines: [34n, 1n, 0n] });
    expect(result.get("b")).toEqual({ total: 33n, lines: [33n, 0n, 0n] });
    expect(result.get("c")).toEqual({ total: 33n, lines: [33n, 0n, 0n] });
  });

  test("every line adds up across the entities, and so do the totals", () => {
    fc.assert(
      fc.property(fc.array(amounts, { maxLength: 6 }), commitments, (lineAmounts, list) => {
        const result = allocateLines(
          lineAmounts.map((amount) => ({ amount, kind: "fee" })),
          list,
        );
        lineAmounts.forEach((amount, i) => {
          let sum = 0n;
          for (const entry of result.values()) sum += entry.lines[i]!;
          expect(sum).toBe(amount);
        });
        for (const entry of result.values()) expect(entry.total).toBe(entry.lines.reduce((a, b) => a + b, 0n));
        const single = lineAmounts.length === 1 ? allocate(lineAmounts[0]!, list) : null;
        if (single) for (const [id, share] of single) expect(result.get(id)!.total).toBe(share);
      }),
    );
  });

  test("no lines: every entity at zero; no shares: refused", () => {
    expect(allocateLines([], three).get("a")).toEqual({ total: 0n, lines: [] });
    expect(() => allocateLines([{ amount: 1n }], [])).toThrow(/no shares/);
    expect(() => allocateLines([{ amount: -1n }], three)).toThrow(/negative amount/);
  });
});

/**
 * Allocation (DESIGN.md §10): a fund-level amount is split pro rata to the
 * commitments in force by the largest-remainder rule, in bigint minor units.
 * Each share first gets floor(amount × weight ÷ total); the units left over go
 * one each to the shares with the largest remainders. Ties on the remainder go
 * to the larger weight, then to the smaller id (plain string `<`), so the answer
 * never depends on the order of the input. Hence: the shares add up exactly,
 * and every share is less than one minor unit from its exact value.
 */

export type AllocationShare = { id: string; weight: bigint };

function checkShares(shares: readonly AllocationShare[]): bigint {
  if (shares.length === 0) throw new Error("Nothing to allocate to: no shares");
  const seen = new Set<string>();
  let total = 0n;
  for (const { id, weight } of shares) {
    if (seen.has(id)) throw new Error(`Duplicate share id: ${id}`);
    seen.add(id);
    if (weight < 0n) throw new Error(`Negative weight for ${id}`);
    total += weight;
  }
  if (total === 0n) throw new Error("Nothing to allocate to: the weights add up to zero");
  return total;
}

function split(amount: bigint, shares: readonly AllocationShare[], total: bigint): Map<string, bigint> {
  if (amount < 0n) throw new Error("Cannot allocate a negative amount");
  const parts = shares.map(({ id, weight }) => {
    const product = amount * weight;
    return { id, weight, floor: product / total, remainder: product % total };
  });
  let left = amount;
  for (const part of parts) left -= part.floor;
  // 0 ≤ left < number of shares with a non-zero remainder, so zero weights never get a unit.
  const byClaim = [...parts].sort((a, b) => {
    if (a.remainder !== b.remainder) return a.remainder > b.remainder ? -1 : 1;
    if (a.weight !== b.weight) return a.weight > b.weight ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  for (let i = 0; i < Number(left); i++) byClaim[i]!.floor += 1n;
  return new Map(parts.map((part) => [part.id, part.floor]));
}

/**
 * `amount` (minor units, zero allowed, never negative) split over `shares` pro
 * rata to their weights (commitments in minor units; zero allowed, never
 * negative). The map holds every id, in input order. Throws on an empty list,
 * a duplicate id, a negative amount or weight, or weights adding up to zero:
 * the caller answers that as "no commitments in force".
 */
export function allocate(amount: bigint, shares: readonly AllocationShare[]): Map<string, bigint> {
  return split(amount, shares, checkShares(shares));
}

export type AllocatedLines = { total: bigint; lines: bigint[] };

/**
 * Several lines (a call's investment and its fees, say), each split on its own,
 * so each line adds up to the cent across the shares. Per id (input order): the
 * share of every line, in the lines' order, and their sum. Splitting the lines
 * one by one can give a share a unit more or less than splitting their sum would;
 * that is the point: each line ties on its own.
 */
export function allocateLines(lines: readonly { amount: bigint }[], shares: readonly AllocationShare[]): Map<string, AllocatedLines> {
  const total = checkShares(shares);
  const result = new Map<string, AllocatedLines>(shares.map(({ id }) => [id, { total: 0n, lines: [] }]));
  for (const line of lines) {
    for (const [id, share] of split(line.amount, shares, total)) {
      const entry = result.get(id)!;
      entry.lines.push(share);
      entry.total += share;
    }
  }
  return result;
}

// Seeded randomness. Every draw comes from a generator derived from a label path, and each step of a plan
// draws from its own fork, so adding a later step never changes what earlier ones produced.
import seedrandom from 'seedrandom';

/**
 * A deterministic random generator: the same seed gives the same sequence on every machine.
 *
 * @example
 * const rng = createRandom('42/ls-0001/0');
 * rng.fork('names').pick(['a', 'b', 'c']);
 */
export interface Random {
  /** The seed this generator was made from; forks append `/label`. */
  readonly seed: string;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** One element, chosen with the given non-negative weights. */
  weighted<T>(items: ReadonlyArray<readonly [number, T]>): T;
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** `count` distinct elements in their original order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** An independent generator for a named sub-step. */
  fork(label: string | number): Random;
}

/**
 * Creates a generator from a seed string (ARC4 from `seedrandom`, the same on every platform).
 *
 * @example
 * createRandom('seed').int(1, 6)
 */
export function createRandom(seed: string): Random {
  // The ARC4 state is keyed on the first draw: most forks only fork again or are never drawn from (more
  // than half in a `hat` run), and keying one costs a 256-entry table. The sequence is the same.
  let source: seedrandom.PRNG | undefined;
  const next = () => {
    source ??= seedrandom(seed);
    return source.double();
  };
  const random: Random = {
    seed,
    next,
    int(min, max) {
      if (!Number.isInteger(min) || !Number.isInteger(max) || max < min)
        throw new RangeError(`int(${min}, ${max})`);
      return min + Math.floor(next() * (max - min + 1));
    },
    chance(p) {
      if (p <= 0) return false;
      if (p >= 1) return true;
      return next() < p;
    },
    pick(items) {
      if (items.length === 0) throw new RangeError('pick from an empty array');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    weighted(items) {
      const total = items.reduce((sum, [weight]) => sum + Math.max(0, weight), 0);
      if (items.length === 0 || total <= 0) throw new RangeError('weighted pick needs a positive weight');
      let target = next() * total;
      for (const [weight, item] of items) {
        target -= Math.max(0, weight);
        if (target < 0) return item;
      }
      return (items.at(-1) as (typeof items)[number])[1];
    },
    shuffle(items) {
      const copy = [...items];
      for (let index = copy.length - 1; index > 0; index--) {
        const other = Math.floor(next() * (index + 1));
        [copy[index], copy[other]] = [
          copy[other] as (typeof copy)[number],
          copy[index] as (typeof copy)[number],
        ];
      }
      return copy;
    },
    sample(items, count) {
      const chosen = new Set(random.shuffle(items.map((_, index) => index)).slice(0, Math.max(0, count)));
      return items.filter((_, index) => chosen.has(index));
    },
    fork(label) {
      return createRandom(`${seed}/${label}`);
    },
  };
  return random;
}

// The bench's large inputs: the fixture's lines cycled, each copy with its own id, so that the augment
// child and the Python masking baseline read the same examples.

/**
 * The id of input `index` when `count` fixture lines are cycled: the fixture's own id in the first copy,
 * `<id>~<copy>` after it.
 *
 * @example
 * cycledId('ls-0001', 396, 396) // 'ls-0001~1'
 */
export function cycledId(id: string, index: number, count: number): string {
  const copy = Math.floor(index / count);
  return copy > 0 ? `${id}~${copy}` : id;
}

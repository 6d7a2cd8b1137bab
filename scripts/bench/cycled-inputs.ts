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

/**
 * The first `count` inputs of the fixture's `lines` cycled, as JSON lines, each copy with its own id: the
 * inputs the augment child generates for `--inputs count`.
 */
export function cycledLines(lines: readonly string[], count: number): string[] {
  return Array.from({ length: count }, (_, index) => {
    const value = JSON.parse(lines[index % lines.length] as string) as { id: string };
    value.id = cycledId(value.id, index, lines.length);
    return JSON.stringify(value);
  });
}

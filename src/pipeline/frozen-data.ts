// JSON data handed to several consumers at once (the export stage gives each example to every trainer
// sink) is frozen whole first, so that what one consumer derives from it and keeps by its identity (the
// trainer adapters' checked form of an example) holds for every other: frozen data cannot change.
// `isFrozenWhole` answers at once, and only for what `freezeWhole` froze to the last leaf.

const frozenWhole = new WeakSet<object>();

function isPlainData(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return Array.isArray(value)
    ? prototype === Array.prototype
    : prototype === Object.prototype || prototype === null;
}

/**
 * Freezes JSON data (plain objects and arrays, to the last leaf) and returns it. Data that holds any other
 * kind of object (a Map, a class instance) is returned as it is, neither frozen nor counted as frozen whole.
 *
 * @example
 * const example = freezeWhole(JSON.parse(line)); isFrozenWhole(example) // true
 */
export function freezeWhole<T>(value: T): T {
  if (typeof value !== 'object' || value === null || frozenWhole.has(value)) return value;
  const reached = new Set<object>();
  const pending: object[] = [value];
  while (pending.length > 0) {
    const node = pending.pop() as object;
    if (reached.has(node)) continue;
    if (!isPlainData(node)) return value;
    reached.add(node);
    for (const child of Object.values(node))
      if (typeof child === 'object' && child !== null && !frozenWhole.has(child)) pending.push(child);
  }
  for (const node of reached) {
    Object.freeze(node);
    frozenWhole.add(node);
  }
  return value;
}

/**
 * Whether `freezeWhole` froze this value to the last leaf (a value frozen some other way is not known to be).
 *
 * @example
 * isFrozenWhole(Object.freeze({ a: {} })) // false: `a` could still change
 */
export function isFrozenWhole(value: unknown): boolean {
  return typeof value === 'object' && value !== null && frozenWhole.has(value);
}

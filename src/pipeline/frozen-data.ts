// JSON data handed to several consumers at once (the export stage gives each example to every trainer
// sink) is frozen whole first, so that what one consumer derives from it and keeps by its identity (the
// trainer adapters' checked form of an example) holds for every other: frozen data cannot change.
// `isFrozenWhole` answers at once, and only for a value that `freezeWhole` froze to the last leaf.

const frozenWhole = new WeakSet<object>();

/** Deeper than any JSON line may nest (256); deeper data, or a cycle, is not frozen whole. */
const maxFreezeDepth = 1024;

/**
 * Freezes JSON data, as JSON.parse makes it (plain objects and arrays with enumerable data properties), to
 * the last leaf and returns it. Data that holds any other kind of object (a Map, a class instance), or
 * nests deeper than 1,024 levels, is not counted as frozen whole (what was frozen before the walk met it
 * stays frozen).
 *
 * @example
 * const example = freezeWhole(JSON.parse(line)); isFrozenWhole(example) // true
 */
export function freezeWhole<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !frozenWhole.has(value) && freezeTree(value, 0))
    frozenWhole.add(value);
  return value;
}

/** Freezes a tree bottom-up; false when it meets what is not plain JSON data. A `for…in` walk, the fastest. */
function freezeTree(node: object, depth: number): boolean {
  if (depth > maxFreezeDepth) return false;
  const prototype = Object.getPrototypeOf(node);
  if (Array.isArray(node)) {
    if (prototype !== Array.prototype) return false;
    for (const child of node)
      if (typeof child === 'object' && child !== null && !freezeTree(child, depth + 1)) return false;
  } else {
    if (prototype !== Object.prototype && prototype !== null) return false;
    for (const key in node) {
      const child = (node as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null && !freezeTree(child, depth + 1)) return false;
    }
  }
  Object.freeze(node);
  return true;
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

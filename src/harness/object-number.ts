// A number per object, for cache keys that must tell objects apart by identity rather than content (a
// harness object whose prompt was rendered, a hook-check registry that holds functions). Numbers are never
// reused within a process; objects are held weakly.
// Process state, not a cache: an object's number, never reused, held weakly.
const numbers = new WeakMap<object, number>();
let count = 0;

/**
 * The object's number: the same for the same object, different for every other object.
 *
 * @example
 * objectNumber(harness) === objectNumber(harness) // true
 */
export function objectNumber(object: object): number {
  let number = numbers.get(object);
  if (number === undefined) {
    number = ++count;
    numbers.set(object, number);
  }
  return number;
}

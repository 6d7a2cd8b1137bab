// Whether two values serialise to the same JSON text (`JSON.stringify(a) === JSON.stringify(b)`), decided
// by walking both at once instead of building both texts: shared objects are equal at once, and the
// first difference ends the walk. Plain data only is walked (objects, arrays, strings, numbers, booleans,
// null); anything JSON.stringify treats specially (a `toJSON`, a boxed primitive, a class instance, a
// bigint) sends the whole comparison to JSON.stringify, so the answer is always JSON.stringify's. (One
// object compared with itself is equal without a look inside: values JSON.stringify cannot write at all,
// cycles and bigints, are outside this contract.)

const unknown = Symbol('unknown');
type Answer = boolean | typeof unknown;

/**
 * `JSON.stringify(a) === JSON.stringify(b)`, without building either text for plain data.
 *
 * @example
 * sameJson({ a: [1, undefined] }, { a: [1, null] }) // true, as their JSON texts are equal
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const answer = compare(a, b);
  return answer === unknown ? JSON.stringify(a) === JSON.stringify(b) : answer;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
const omitted = (value: unknown) =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

function compare(a: unknown, b: unknown): Answer {
  if (a === b) return true;
  if (typeof a === 'number' || typeof b === 'number') return sameNumberText(a, b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    if (typeof a === 'bigint' || typeof b === 'bigint') return unknown;
    // Distinct primitives (or one missing) have distinct JSON texts; undefined and functions alike have none.
    return omitted(a) && omitted(b);
  }
  if (!plain(a) || !plain(b)) return unknown;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let index = 0; index < a.length; index++) {
      const answer = compare(asElement(a[index]), asElement(other[index]));
      if (answer !== true) return answer;
    }
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const leftKeys = Object.keys(left);
  const rightKeys = Object.keys(right);
  let at = 0;
  for (const key of leftKeys) {
    const value = left[key];
    if (omitted(value)) continue;
    // The next key of `right` that is written: the same key must come in the same place.
    while (at < rightKeys.length && omitted(right[rightKeys[at] as string])) at++;
    if (at >= rightKeys.length || rightKeys[at] !== key) return false;
    const answer = compare(value, right[key]);
    if (answer !== true) return answer;
    at++;
  }
  while (at < rightKeys.length && omitted(right[rightKeys[at] as string])) at++;
  return at >= rightKeys.length;
}

/** An array element as JSON.stringify writes it: left-out values are null. */
const asElement = (value: unknown) => (omitted(value) ? null : value);

/** Arrays and objects whose prototype is Object's or null, with no `toJSON`. */
function plain(value: object): boolean {
  if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype && !('toJSON' in value);
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !('toJSON' in value);
}

/** Numbers by their JSON text: -0 reads 0, and NaN and the infinities read null. */
function sameNumberText(a: unknown, b: unknown): Answer {
  const text = (value: unknown) =>
    typeof value === 'number' ? (Number.isFinite(value) ? String(value) : 'null') : value;
  if (typeof a === 'number' && typeof b === 'number') return text(a) === text(b);
  const other = typeof a === 'number' ? b : a;
  if (typeof other === 'bigint') return unknown;
  if (other === null) return text(typeof a === 'number' ? a : b) === 'null';
  if (typeof other === 'object') return plain(other as object) ? false : unknown;
  return false;
}

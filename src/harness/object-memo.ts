// A value derived once per object: for facts of objects the library treats as immutable (a harness part, a
// check, a context), held weakly, so they go with the object.

/**
 * `derive`, once per object: later calls with the same object return the first result. Only for a `derive`
 * whose result depends on the object's content alone, and objects that are never changed after.
 *
 * @example
 * const kindsOf = objectMemo((skills: Harness['skills']) => new Map(skills.items.map((s) => [s.id, s.kind])));
 * kindsOf(harness.skills) === kindsOf(harness.skills) // true
 */
export function objectMemo<K extends object, V>(derive: (key: K) => V): (key: K) => V {
  // Pure function of content across runs: `derive`'s result, by the object.
  const known = new WeakMap<K, { value: V }>();
  return (key) => {
    let found = known.get(key);
    if (!found) {
      found = { value: derive(key) };
      known.set(key, found);
    }
    return found.value;
  };
}

// Canonical JSON: object keys sorted by UTF-16 code units, no whitespace, `undefined` members dropped.
// Number and string forms follow ECMAScript JSON.stringify, as RFC 8785 (JCS) does, so the bytes are the
// same on every machine and Node version.

/**
 * Serialises a JSON value canonically, so that equal data gives equal bytes whatever its key order.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not a JSON number`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        let out = '[';
        for (let index = 0; index < value.length; index++)
          out += (index > 0 ? ',' : '') + canonicalJson(value[index] ?? null);
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      let out = '{';
      for (const key of keys) {
        const member = record[key];
        if (member === undefined) continue;
        out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(member)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
  }
}

/**
 * Whether two JSON values have the same canonical JSON (`canonicalJson(a) === canonicalJson(b)`), decided
 * by walking both instead of writing both texts: key order and `undefined` members do not matter, `-0` is
 * `0`, an array's `undefined` item is `null`. For JSON values (what `canonicalJson` accepts): a scalar that
 * is not JSON throws as it does there, one inside a container may be passed over once a difference is found.
 *
 * @example
 * sameCanonicalJson({ a: 1, b: undefined }, { a: 1 }) // true
 */
export function sameCanonicalJson(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    if (a === b && typeof a === 'string') return true;
    return canonicalJson(a) === canonicalJson(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++)
      if (!sameCanonicalJson(a[index] ?? null, b[index] ?? null)) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let members = 0;
  for (const key of Object.keys(left)) {
    const value = left[key];
    if (value === undefined) continue;
    const other = Object.hasOwn(right, key) ? right[key] : undefined;
    if (other === undefined || !sameCanonicalJson(value, other)) return false;
    members++;
  }
  for (const key of Object.keys(right)) if (right[key] !== undefined) members--;
  return members === 0;
}

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
      if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
    }
    default:
      throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
  }
}

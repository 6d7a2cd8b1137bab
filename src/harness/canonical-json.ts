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

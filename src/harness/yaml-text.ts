// YAML output that YAML 1.1 readers (PyYAML, older Ruby and Go libraries) read as we wrote it: every
// one-line string that a 1.1 reader would take for a boolean, null, number, date or sexagesimal value
// (`yes`, `no`, `on`, `off`, `y`, `~`, `0755`, `1:20`, …) is double-quoted. YAML 1.2 readers read it the same.
import YAML, {
  type CreateNodeOptions,
  type DocumentOptions,
  isScalar,
  type SchemaOptions,
  type ToStringOptions,
} from 'yaml';

/** Options of `stringifyYaml`: those of the `yaml` package's `stringify`. */
export type YamlTextOptions = DocumentOptions & SchemaOptions & CreateNodeOptions & ToStringOptions;

/** Whether a one-line string would not read back as itself under YAML 1.1 or 1.2 when written plain. */
function isAmbiguous(text: string): boolean {
  if (text.includes('\n')) return false;
  // The same scalars come back for every variant and prompt: parsing them is the cost, so answers are kept
  // (bounded: the map starts over when full).
  const known = ambiguous.get(text);
  if (known !== undefined) return known;
  let answer = false;
  for (const version of ['1.1', '1.2'] as const) {
    try {
      if (YAML.parse(text, { version, logLevel: 'silent' }) !== text) answer = true;
    } catch {
      answer = true;
    }
    if (answer) break;
  }
  if (ambiguous.size >= ambiguousCacheSize) ambiguous.clear();
  ambiguous.set(text, answer);
  return answer;
}
// Pure function of content across runs: whether a string needs quoting in YAML, by the string.
const ambiguous = new Map<string, boolean>();
const ambiguousCacheSize = 20_000;

/**
 * Double-quotes, in place, every string scalar of a document (keys included) that a YAML 1.1 or 1.2
 * reader would not read back as the same string if it were written plain.
 *
 * @example
 * const document = new YAML.Document({ answer: 'no' });
 * quoteAmbiguousScalars(document).toString() // 'answer: "no"\n'
 */
export function quoteAmbiguousScalars<T extends YAML.Document>(document: T): T {
  YAML.visit(document, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && node.type !== 'BLOCK_LITERAL' && isAmbiguous(node.value))
        node.type = 'QUOTE_DOUBLE';
    },
    Pair(_key, pair) {
      // `<<` is the merge key of YAML 1.1: as a key it must be quoted to stay a plain string.
      const key = pair.key;
      if (isScalar(key) && typeof key.value === 'string' && (key.value === '<<' || isAmbiguous(key.value)))
        key.type = 'QUOTE_DOUBLE';
    },
  });
  return document;
}

/**
 * Writes a value as YAML that reads back identically under YAML 1.2 and YAML 1.1 (`quoteAmbiguousScalars`).
 *
 * @example
 * stringifyYaml({ enum: ['yes', 'no', 'on', 'off'] }) // 'enum:\n  - "yes"\n  - "no"\n  - "on"\n  - "off"\n'
 */
export function stringifyYaml(value: unknown, options: YamlTextOptions = {}): string {
  return quoteAmbiguousScalars(new YAML.Document(value, options)).toString(options);
}

/** How many aliases a document may expand: beyond it, a few lines could expand into gigabytes ("billion laughs"). */
export const maxYamlAliasCount = 100;

/** A parsed YAML document's value, or why it has none. */
export type YamlValue =
  | { ok: true; value: unknown }
  | { ok: false; code: 'alias_bomb' | 'too_deep'; message: string; cause: unknown };

/**
 * The value of a parsed YAML document, with the one alias limit of every YAML reader of the library (harness
 * files, SKILL.md front matter): an alias bomb or a value too deep to build is a reason, never a throw.
 *
 * @example
 * yamlDocumentValue(YAML.parseDocument('a: 1')) // { ok: true, value: { a: 1 } }
 */
export function yamlDocumentValue(document: YAML.Document): YamlValue {
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: maxYamlAliasCount }) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof RangeError) return { ok: false, code: 'too_deep', message, cause: error };
    if (/alias/i.test(message))
      return {
        ok: false,
        code: 'alias_bomb',
        message: `too many aliases (an alias bomb?): ${message}`,
        cause: error,
      };
    throw error;
  }
}

// How the shop reads a data file of its own (the catalog, the phrases): JSON checked against the format's
// zod schema. An unreadable file is a usage error; text that is not JSON, or data the schema refuses, is a
// content error whose issues name the file and the path.
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { HarnessAugmentError } from '../../harness/issues.js';
import { fromZodIssues } from '../../harness/parse-harness.js';

/**
 * Checks data against a schema; data it refuses throws an error listing every problem with its path.
 *
 * @example
 * parseShopData(ShopPhrasesSchema, JSON.parse(text), 'phrases.json', 'shop phrases')
 */
export function parseShopData<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  source: string,
  what: string,
): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issues = fromZodIssues(parsed.error.issues).map((issue) => ({ ...issue, file: source }));
    throw new HarnessAugmentError(`${source}: invalid ${what}: ${issues.length} issue(s)`, { issues });
  }
  return parsed.data;
}

/**
 * Reads a JSON file and hands its value, with the name to report it by, to `parse`.
 *
 * @example
 * loadShopData('fixtures/livestream/phrases.json', 'shop phrases', parseShopPhrases)
 */
export function loadShopData<Data>(
  file: string | URL,
  what: string,
  parse: (value: unknown, source: string) => Data,
): Data {
  const source = typeof file === 'string' ? file : file.pathname;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessAugmentError(`${source}: cannot read the ${what} (${(error as Error).message})`, {
      kind: 'usage',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HarnessAugmentError(`${source}: not JSON (${(error as Error).message})`, {
      issues: [{ code: 'syntax_error', path: [], message: (error as Error).message, file: source }],
    });
  }
  return parse(value, source);
}

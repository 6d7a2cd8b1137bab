// Verifiable instruction-following constraints of an OPD prompt (IFEval-style: word and sentence counts,
// bullets, case, required and banned words, JSON shape, a pattern), as plain data, and the check of a
// response against them. The OPD stage uses it to keep only references that satisfy their own prompt;
// users can score a student's answers with it. User patterns run on re2js (linear time).
import { RE2JS } from 're2js';
import { z } from 'zod';

const count = z.int().min(0);
const words = z.array(z.string().min(1)).min(1);

/**
 * One constraint on a response.
 *
 * @example
 * ConstraintSchema.parse({ kind: 'max_words', value: 40 });
 */
export const ConstraintSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('max_words'), value: count }),
  z.strictObject({ kind: z.literal('min_words'), value: count }),
  z.strictObject({ kind: z.literal('max_chars'), value: count }),
  z.strictObject({ kind: z.literal('sentences'), value: count }),
  z.strictObject({ kind: z.literal('paragraphs'), value: count }),
  z.strictObject({ kind: z.literal('lines'), value: count }),
  z.strictObject({ kind: z.literal('bullets'), value: count }),
  z.strictObject({ kind: z.literal('numbered'), value: count }),
  z.strictObject({ kind: z.literal('lowercase') }),
  z.strictObject({ kind: z.literal('uppercase') }),
  z.strictObject({ kind: z.literal('no_commas') }),
  z.strictObject({ kind: z.literal('quoted') }),
  z.strictObject({ kind: z.literal('title') }),
  z.strictObject({ kind: z.literal('includes'), value: words }),
  z.strictObject({ kind: z.literal('excludes'), value: words }),
  z.strictObject({ kind: z.literal('starts_with'), value: z.string().min(1) }),
  z.strictObject({ kind: z.literal('ends_with'), value: z.string().min(1) }),
  z.strictObject({ kind: z.literal('one_of'), value: words }),
  z.strictObject({ kind: z.literal('json_keys'), value: words }),
  z.strictObject({ kind: z.literal('json_array'), value: count }),
  z.strictObject({ kind: z.literal('regex'), value: z.string().min(1) }),
]);

/** One verifiable constraint on a response (`ConstraintSchema`), checked by `checkConstraints`. */
export type Constraint = z.infer<typeof ConstraintSchema>;

const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean);
const linesOf = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a constraint measures in a response, and whether it holds. */
function evaluate(constraint: Constraint, text: string): { pass: boolean; saw: string } {
  const trimmed = text.trim();
  switch (constraint.kind) {
    case 'max_words':
    case 'min_words': {
      const n = wordsOf(trimmed).length;
      return {
        pass: constraint.kind === 'max_words' ? n <= constraint.value : n >= constraint.value,
        saw: `${n} words`,
      };
    }
    case 'max_chars':
      return { pass: [...trimmed].length <= constraint.value, saw: `${[...trimmed].length} characters` };
    case 'sentences': {
      const n = trimmed.split(/(?<=[.!?])\s+/).filter((part) => /\w/.test(part)).length;
      return { pass: n === constraint.value, saw: `${n} sentences` };
    }
    case 'paragraphs': {
      const n = trimmed.split(/\n\s*\n/).filter((part) => part.trim() !== '').length;
      return { pass: n === constraint.value, saw: `${n} paragraphs` };
    }
    case 'lines': {
      const n = linesOf(trimmed).length;
      return { pass: n === constraint.value, saw: `${n} lines` };
    }
    case 'bullets':
    case 'numbered': {
      const pattern = constraint.kind === 'bullets' ? /^\s*[-*] / : /^\s*\d+\. /;
      const n = linesOf(trimmed).filter((line) => pattern.test(line)).length;
      return {
        pass: n === constraint.value,
        saw: `${n} ${constraint.kind === 'bullets' ? 'bullets' : 'numbered items'}`,
      };
    }
    case 'lowercase':
      return { pass: trimmed === trimmed.toLowerCase(), saw: 'upper-case letters' };
    case 'uppercase':
      return { pass: trimmed === trimmed.toUpperCase(), saw: 'lower-case letters' };
    case 'no_commas':
      return { pass: !trimmed.includes(','), saw: 'a comma' };
    case 'quoted':
      return {
        pass: trimmed.length > 1 && trimmed.startsWith('"') && trimmed.endsWith('"'),
        saw: 'no surrounding quotes',
      };
    case 'title':
      return { pass: /<<[^<>\n]+>>/.test(trimmed), saw: 'no <<title>>' };
    case 'includes': {
      const missing = constraint.value.filter((word) => !trimmed.toLowerCase().includes(word.toLowerCase()));
      return {
        pass: missing.length === 0,
        saw: `missing ${missing.map((word) => JSON.stringify(word)).join(', ')}`,
      };
    }
    case 'excludes': {
      const present = constraint.value.filter((word) => trimmed.toLowerCase().includes(word.toLowerCase()));
      return {
        pass: present.length === 0,
        saw: `contains ${present.map((word) => JSON.stringify(word)).join(', ')}`,
      };
    }
    case 'starts_with':
      return { pass: trimmed.startsWith(constraint.value), saw: JSON.stringify(trimmed.slice(0, 20)) };
    case 'ends_with':
      return { pass: trimmed.endsWith(constraint.value), saw: JSON.stringify(trimmed.slice(-20)) };
    case 'one_of':
      return { pass: constraint.value.includes(trimmed), saw: JSON.stringify(trimmed.slice(0, 40)) };
    case 'json_keys': {
      const value = parseJson(trimmed);
      const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
      const missing = isObject
        ? constraint.value.filter((key) => !Object.hasOwn(value, key))
        : constraint.value;
      return {
        pass: isObject && missing.length === 0,
        saw: isObject ? `missing keys ${missing.join(', ')}` : 'not a JSON object',
      };
    }
    case 'json_array': {
      const value = parseJson(trimmed);
      return {
        pass: Array.isArray(value) && value.length === constraint.value,
        saw: Array.isArray(value) ? `${value.length} items` : 'not a JSON array',
      };
    }
    case 'regex':
      return { pass: RE2JS.compile(constraint.value).matcher(trimmed).find(), saw: 'no match' };
  }
}

/** A constraint a response does not meet. */
export interface ConstraintFailure {
  index: number;
  kind: Constraint['kind'];
  message: string;
}

/**
 * Checks a response against constraints; the failures say what was expected and what was seen.
 *
 * @example
 * checkConstraints('- a\n- b', [{ kind: 'bullets', value: 3 }]) // [{ index: 0, kind: 'bullets', message: 'expected bullets 3, saw 2 bullets' }]
 */
export function checkConstraints(text: string, constraints: readonly Constraint[]): ConstraintFailure[] {
  return constraints.flatMap((constraint, index) => {
    const { pass, saw } = evaluate(constraint, text);
    if (pass) return [];
    const expected = 'value' in constraint ? ` ${JSON.stringify(constraint.value)}` : '';
    return [{ index, kind: constraint.kind, message: `expected ${constraint.kind}${expected}, saw ${saw}` }];
  });
}

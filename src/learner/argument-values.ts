// Argument VALUES, by a fixed rule (the learner is judged on the names it writes, not on values): numbers
// come from the last user message in the order they appear, each used once per call and only inside the
// schema's bounds; an array of numbers takes all of them; other strings get the last user message itself;
// booleans are false. Nothing here reads a gold answer or a relabel: only the conversation and the schema.
import type { Conversation } from './decisions.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function numbersOf(text: string): number[] {
  return [...text.matchAll(/\d+(?:\.\d+)?/g)].map((match) => Number(match[0]));
}

function fits(schema: JsonObject | undefined, value: number): boolean {
  if (!schema) return true;
  const type = schema.type;
  if (type === 'integer' && !Number.isInteger(value)) return false;
  if (typeof schema.minimum === 'number' && value < schema.minimum) return false;
  if (typeof schema.maximum === 'number' && value > schema.maximum) return false;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return false;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return false;
  return true;
}

/**
 * A value filler for one call: each number of the last user message is used at most once.
 *
 * @example
 * const fill = argumentFiller(conversation);
 * fill({ type: 'integer', minimum: 1 }, 'link_id') // 4 for "link 4 price?"
 */
export function argumentFiller(conversation: Conversation): (schema: unknown, key: string) => unknown {
  const numbers = numbersOf(conversation.lastUser);
  const used = new Set<number>();
  const text = conversation.lastUser.trim();
  const nextNumber = (schema: JsonObject | undefined) => {
    const position = numbers.findIndex((value, index) => !used.has(index) && fits(schema, value));
    if (position < 0) return undefined;
    used.add(position);
    return numbers[position];
  };
  return (schema) => {
    const property = isObject(schema) ? schema : undefined;
    const type = Array.isArray(property?.type) ? property.type[0] : property?.type;
    switch (type) {
      case 'integer':
      case 'number':
        return nextNumber(property);
      case 'boolean':
        return false;
      case 'array': {
        const items = isObject(property?.items) ? property.items : undefined;
        if (items?.type === 'integer' || items?.type === 'number')
          return numbers.filter((value) => fits(items, value));
        return text === '' ? [] : [text];
      }
      case 'string': {
        const limit = typeof property?.maxLength === 'number' ? property.maxLength : undefined;
        return limit === undefined ? text : text.slice(0, limit);
      }
      case undefined:
        // No schema (a tool that is not offered): a number when there is one, else the text.
        return nextNumber(undefined) ?? text;
      default:
        return undefined;
    }
  };
}

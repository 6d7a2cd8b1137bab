// The notes an OpenAI tool list's import prints (`hsa import openai-tools`, `hsa harness build
// --openai-tools`): what the reading did beyond the tools as written, never an error.
import type { OpenAIToolsRead } from '../harness/importers/openai-tools.js';
import { formatPath, type JsonPath } from '../harness/issues.js';

const places = (count: number) => `${count} place${count === 1 ? '' : 's'}`;

/**
 * What a user should know of an OpenAI tool list that was read: the Python type names read as JSON Schema
 * types, and BFCL `response` schemas kept as `outputSchema` or left out.
 *
 * @example
 * openAIToolsNotes('--openai-tools travel_booking.json', read) // ['note: --openai-tools travel_booking.json: read Python type names as JSON Schema types: dict → object (36 places), …']
 */
export function openAIToolsNotes(
  label: string,
  read: OpenAIToolsRead,
  lineOf: (path: JsonPath) => number | undefined = () => undefined,
): string[] {
  const notes: string[] = [];
  if (read.typeNames.length > 0)
    notes.push(
      `note: ${label}: read Python type names as JSON Schema types: ${read.typeNames
        .map(({ name, as, count }) => `${name} → ${as ?? 'any value (no type)'} (${places(count)})`)
        .join(', ')}`,
    );
  const { kept, leftOut } = read.responses;
  if (kept.length > 0)
    notes.push(
      `note: ${label}: kept the response schema of ${kept.length} tool${kept.length === 1 ? ' as its' : 's as their'} outputSchema ` +
        '(written by `hsa export mcp`; an OpenAI tool has no field for it)',
    );
  for (const { tool, path, reason } of leftOut) {
    const line = lineOf(path);
    const where = `${line === undefined ? '' : `line ${line}, `}${formatPath(path)}`;
    notes.push(`note: ${label}: left out the response schema of tool "${tool}" (${where}): ${reason}`);
  }
  return notes;
}

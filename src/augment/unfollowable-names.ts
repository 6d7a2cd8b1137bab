// Names a rename could not follow, read from texts: a plain-word tool name written bare, in code or in another
// case, and a parameter name written as a parameter. The operators' guards (through the kit) and the variant
// pool's choice of an entry for an example's replies share this reading.
import { isDistinctiveIdentifier, namedByKindWord } from '../harness/symbol-table.js';
import { wordCharacter } from '../harness/text-index.js';
import type { Trajectory } from '../trajectory/schema.js';

/**
 * Of the given tool names, the plain-word ones that the texts write where a rename cannot follow (the reading
 * of `plainToolNamesInText`, over texts the caller chooses: a trajectory's replies under a pool entry's
 * renames).
 *
 * @example
 * plainToolNamesWritten(['fetch', 'get_time'], ["I'll call fetch again."]) // Set { 'fetch' }
 */
export function plainToolNamesWritten(names: readonly string[], texts: readonly string[]): Set<string> {
  const plain = new Map<string, string>();
  for (const name of names)
    if (name !== '' && !isDistinctiveIdentifier(name)) plain.set(name.toLowerCase(), name);
  const found = new Set<string>();
  if (plain.size === 0) return found;
  const read = (text: string) => {
    for (const match of text.matchAll(/[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*/gu)) {
      const name = plain.get(match[0].toLowerCase());
      if (name === undefined || found.has(name)) continue;
      const end = match.index + match[0].length;
      const before = text[match.index - 1] ?? '';
      const after = text[end] ?? '';
      // Inside a path, a URL or a longer token it is another thing (`src/read/`, `fetch.py`).
      if (/[/\\.@~]/u.test(before) || (after === '.' && /[\p{L}\p{N}]/u.test(text[end + 1] ?? ''))) continue;
      // "the fetch tool": the one form the symbol table takes, so a rename follows it.
      if (match[0] === name && namedByKindWord(text, match.index, end, 'tool')) continue;
      found.add(name);
    }
  };
  for (const text of texts) read(text);
  return found;
}

/**
 * Whether the word at `[start, end)` is written as a parameter: given a value ("workdir=\"/foo\"", "set raw
 * to true", "raw set to true", "raw to false"), as the label of a line ("- thought: …"), or beside another
 * parameter's name ("offset/limit").
 */
function namesParameter(text: string, start: number, end: number, names: readonly string[]): boolean {
  const after = text.slice(end, end + 24);
  const before = text.slice(Math.max(0, start - 12), start);
  if (/^\s*=/u.test(after) || /^\s+(?:set\s+)?to\s+(?:true|false|null|none|\d)/iu.test(after)) return true;
  if (/^\s+set\s+to\b/iu.test(after) || (/\bset\s+(?:the\s+)?$/iu.test(before) && /^\s+to\b/iu.test(after)))
    return true;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (/^\s*(?:[-*•]\s+)?$/u.test(text.slice(lineStart, start)) && /^\s*[:：]/u.test(after)) return true;
  const neighbour = (word: string | undefined) => word !== undefined && names.includes(word);
  return (
    (text[end] === '/' && neighbour(/^\/([\p{L}\p{N}_]+)/u.exec(text.slice(end))?.[1])) ||
    (text[start - 1] === '/' && neighbour(/([\p{L}\p{N}_]+)\/$/u.exec(text.slice(0, start))?.[1]))
  );
}

/** Words after a parameter's name that say the name is the parameter ("the 'head' parameter"). */
const parameterNoun =
  /^['"’”]?[ \t]+(?:parameters?|arguments?|args?|fields?|options?|flags?|propert(?:y|ies)|keys?)\b/iu;

/**
 * Of the given parameter names, those that a trajectory's replies name as parameters (the reading of
 * `parameterNamesInProse`, where code counts too: the relabel follows no parameter in a reply).
 *
 * @example
 * parameterNamesInReplies(["I'll call fetch with raw set to true."], ['url', 'raw']) // Set { 'raw' }
 */
export function parameterNamesInReplies(replies: readonly string[], names: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (const text of replies)
    readParameterNames(text, names, named, { recognisedAt: () => false, codeIsMention: false });
  return named;
}

/** Adds to `named` the names of `names` that `text` names as parameters (see `parameterNamesInProse`). */
export function readParameterNames(
  text: string,
  names: readonly string[],
  named: Set<string>,
  how: { recognisedAt: (index: number) => boolean; codeIsMention: boolean },
): void {
  // Backticks open and close code spans: a name inside one is code, which `unresolvedCodeNames` reads.
  const code = [...text.matchAll(/`[^`\n]+`/g)].map((span) => [span.index, span.index + span[0].length]);
  const inCode = (index: number) =>
    code.some(([from, to]) => index >= (from as number) && index < (to as number));
  for (const name of names) {
    if (named.has(name)) continue;
    for (let index = text.indexOf(name); index >= 0; index = text.indexOf(name, index + 1)) {
      const end = index + name.length;
      if (wordCharacter.test(text[index - 1] ?? '') || wordCharacter.test(text[end] ?? '')) continue;
      const coded = inCode(index);
      if ((coded && how.codeIsMention) || how.recognisedAt(index)) continue;
      if (
        coded ||
        isDistinctiveIdentifier(name) ||
        parameterNoun.test(text.slice(end, end + 24)) ||
        namesParameter(text, index, end, names)
      ) {
        named.add(name);
        break;
      }
    }
  }
}

/**
 * The trajectory's replies: the text of its assistant messages (hook turns aside), what the model learns to
 * write. Unlike tool results, which are the environment's data (a JSON key equal to a parameter's name is
 * data there), a name in a reply is the agent's own reference.
 *
 * @example
 * trajectoryReplies(trajectory) // ["I'll call fetch with raw set to true."]
 */
export function trajectoryReplies(trajectory: Trajectory | undefined): string[] {
  if (!trajectory) return [];
  return trajectory.messages.flatMap((message) =>
    message.role === 'assistant' && message.content !== null && !message.hsa ? [message.content] : [],
  );
}

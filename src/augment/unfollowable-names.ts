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

// A pattern's wildcard touches a separator or stands between name characters (`namePatternsWritten`).
const patternSeparator = /[_.:-]/u;
const patternNameCharacter = /[\p{L}\p{N}]/u;

/**
 * The name patterns the texts write, each as a test of a name: a token of name characters with a `*` wildcard
 * (`'list_*'`, `search_*`, `get_*_by_id`, `*_write`, `mcp__github__*`) addresses every tool it matches ("Use
 * 'search_*' tools for targeted queries"), a family a rename cannot follow name by name. A `*` must touch a
 * separator (`_`, `-`, `.`, `:`) or stand between name characters, and the pattern must hold two letters or
 * digits in a row: markdown's `*emphasis*` and `**bold**` are no pattern, nor is a bare `*` or `*_*`.
 *
 * @example
 * namePatternsWritten(["Use 'list_*' tools for broad retrieval."]).some((test) => test('list_issues')) // true
 */
export function namePatternsWritten(texts: readonly string[]): Array<(name: string) => boolean> {
  const patterns = new Map<string, (name: string) => boolean>();
  const tokenCharacter = /[\p{L}\p{N}_.:*-]/u;
  // From each `*` not yet read, the run of name characters around it (linear in the text).
  for (const text of texts)
    for (
      let star = text.indexOf('*'), from = 0;
      star >= 0;
      star = text.indexOf('*', Math.max(star + 1, from))
    ) {
      let start = star;
      while (start > from && tokenCharacter.test(text[start - 1] as string)) start--;
      let end = star + 1;
      while (end < text.length && tokenCharacter.test(text[end] as string)) end++;
      from = end;
      // Sentence punctuation around a pattern ("… the search_* tools.") is not part of it.
      while (start < end && '.:-'.includes(text[start] as string)) start++;
      while (end > start && '.:-'.includes(text[end - 1] as string)) end--;
      const token = text.slice(start, end);
      if (patterns.has(token) || !/[\p{L}\p{N}]{2}/u.test(token)) continue;
      let wildcard = false;
      let valid = true;
      for (let index = token.indexOf('*'); index >= 0; index = token.indexOf('*', index + 1)) {
        const before = token[index - 1] ?? '';
        const after = token[index + 1] ?? '';
        if (before === '*' || after === '*') valid = false;
        else if (
          patternSeparator.test(before) ||
          patternSeparator.test(after) ||
          (patternNameCharacter.test(before) && patternNameCharacter.test(after))
        )
          wildcard = true;
        else valid = false;
      }
      if (!valid || !wildcard) continue;
      const source = token
        .split('*')
        .map((part) => part.replace(/[.\\^$+?()[\]{}|-]/gu, '\\$&'))
        .join('[\\p{L}\\p{N}_.:-]*');
      const pattern = new RegExp(`^${source}$`, 'u');
      patterns.set(token, (name) => pattern.test(name));
    }
  return [...patterns.values()];
}

/**
 * Of the given names, those that a name pattern the texts write matches (`namePatternsWritten`).
 *
 * @example
 * namesMatchedByPatterns(['list_issues', 'get_me'], ["Use 'list_*' tools."]) // Set { 'list_issues' }
 */
export function namesMatchedByPatterns(names: readonly string[], texts: readonly string[]): Set<string> {
  const patterns = namePatternsWritten(texts);
  return new Set(names.filter((name) => patterns.some((test) => test(name))));
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
  /^['"’”`]?[ \t]+(?:parameters?|arguments?|args?|fields?|options?|flags?|propert(?:y|ies)|keys?)\b/iu;

/** The next name of a list after a name ("…, repo, and pullNumber", "'sort' and 'order'", "body or event"). */
const listedName =
  /^['"’”`]?(?:[ \t]*,[ \t]*(?:(?:and|or)[ \t]+)?|[ \t]+(?:and|or|&)[ \t]+)['"‘“`]?([\p{L}\p{N}_-]+)/u;

/**
 * Whether the word ending at `end` is followed by the word "parameter" (argument, field, option …), itself or
 * as a name of a list the noun closes, every name of which is a parameter's ("The "body" and "event"
 * parameters", "The owner, repo, and pullNumber parameters", "the sort or order option").
 */
function parameterNounAfter(text: string, end: number, names: readonly string[]): boolean {
  let at = end;
  for (let listed = 0; listed < 12; listed++) {
    if (parameterNoun.test(text.slice(at, at + 24))) return true;
    const next = listedName.exec(text.slice(at, at + 96));
    if (next === null || !names.includes(next[1] as string)) return false;
    at += next[0].length;
  }
  return false;
}

/** A type in parentheses after a name: the name is a property's ("each object with path (string) and …"). */
const typeAfter =
  /^[ \t]*\((?:string|str|integer|int|number|float|double|boolean|bool|array|list|object|dict|map|null|optional|required)\b[^)\n]{0,40}\)/iu;

/** The closing quotes that pair with each opening quote. */
const closingQuotes: Readonly<Record<string, string>> = { "'": "'’", '"': '"”', '‘': '’', '“': '”' };

/**
 * Whether the word at `[start, end)` is quoted, alone or as the key of a quoted setting ("'value'", "\"body\"",
 * "'delete: true'", "'sort:'"). A quoted text is protected content, which no rename rewrites.
 */
function quotedAt(text: string, start: number, end: number): boolean {
  const closers = closingQuotes[text[start - 1] ?? ''];
  if (closers === undefined || wordCharacter.test(text[start - 2] ?? '')) return false;
  const close = /^(?:[ \t]*[:=][^'"‘’“”\n]{0,32})?(.)/u.exec(text.slice(end, end + 48));
  return close !== null && closers.includes(close[1] as string);
}

/**
 * Whether the word at `[start, end)`, a parameter of the tool whose text this is, is written bare where it can
 * only be the parameter: as what is (or is not) provided, required, set … ("Required unless body is
 * provided", "Ignored unless state is changed"), or after a word that weighs one parameter against another
 * ("it will be used instead of ref", "Cannot be combined with body", "At least one of body or reaction").
 */
function ownParameterAt(text: string, start: number, end: number): boolean {
  return (
    /^[ \t]+(?:is|are)[ \t]+(?:not[ \t]+)?(?:provided|required|specified|given|set|omitted|supplied|passed|present|absent|empty|changed|null)\b/iu.test(
      text.slice(end, end + 32),
    ) ||
    /\b(?:instead[ \t]+of|combined[ \t]+with|together[ \t]+with|unless|(?:one|any|either|neither|both)[ \t]+of)[ \t]+$/iu.test(
      text.slice(Math.max(0, start - 24), start),
    )
  );
}

/** Whether the word ending at `end` is followed by one of its values in quotes or code ("with method 'create'"). */
function valueAfter(text: string, end: number, values: ReadonlySet<string> | undefined): boolean {
  if (values === undefined) return false;
  const value = /^[ \t]+['"‘“`]([^'"‘’“”`\n]{1,48})['"’”`]/u.exec(text.slice(end, end + 56));
  return value !== null && values.has(value[1] as string);
}

/** How `readParameterNames` reads one text. */
export interface ParameterReading {
  /** Whether the symbol table reads a mention at this offset (a rename follows it there). */
  recognisedAt: (index: number) => boolean;
  /** Whether a name in code is a mention the rename follows (harness texts), or one it cannot (replies). */
  codeIsMention: boolean;
  /**
   * The names whose quoted form ("'value'", "the \"body\" parameter", "'delete: true'") names the parameter
   * here: a tool's own for its texts, every name for the prompt's and a reply's.
   */
  quoted?: ReadonlySet<string>;
  /** A tool's own parameters, for its texts: written bare where they can only be the parameter (`ownParameterAt`). */
  own?: ReadonlySet<string>;
  /** The values each name's schema lists (`enum`): a name followed by one in quotes or code is the parameter. */
  values?: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * Of the given parameter names, those that a trajectory's replies name as parameters (the reading of
 * `parameterNamesInProse`, where code counts too: the relabel follows no parameter in a reply).
 *
 * @example
 * parameterNamesInReplies(["I'll call fetch with raw set to true."], ['url', 'raw']) // Set { 'raw' }
 */
export function parameterNamesInReplies(
  replies: readonly string[],
  names: readonly string[],
  values?: ReadonlyMap<string, ReadonlySet<string>>,
): Set<string> {
  const named = new Set<string>();
  const quoted = new Set(names);
  for (const text of replies)
    readParameterNames(text, names, named, {
      recognisedAt: () => false,
      codeIsMention: false,
      quoted,
      ...(values !== undefined ? { values } : {}),
    });
  return named;
}

/**
 * Adds to `named` the names of `names` that `text` names as parameters (see `parameterNamesInProse`): in code
 * (a reply's), a distinctive name anywhere, a name the word "parameter" follows (itself or closing a list of
 * names: "The "body" and "event" parameters"), a name given a value or beside another (`namesParameter`), a
 * name followed by its type ("path (string)") or by one of its values ("method 'create'"), a name quoted
 * (`how.quoted`: "'value'"), and a tool's own name written bare where it can only be the parameter
 * (`how.own`: "instead of ref").
 */
export function readParameterNames(
  text: string,
  names: readonly string[],
  named: Set<string>,
  how: ParameterReading,
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
        parameterNounAfter(text, end, names) ||
        namesParameter(text, index, end, names) ||
        typeAfter.test(text.slice(end, end + 64)) ||
        valueAfter(text, end, how.values?.get(name)) ||
        (how.quoted?.has(name) === true && quotedAt(text, index, end)) ||
        (how.own?.has(name) === true && ownParameterAt(text, index, end))
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

// The one rule for where an identifier mention may stand: as a whole token, never inside a path, a URL, a
// file name or a longer identifier. Every rename (skills, tools, parameters, merges, relabels) finds
// mentions through `findMentions`, which asks this rule, so none of them rewrites `skill-creator/` or
// `<skill-creator-path>`.

/** Characters that continue an identifier or a file name: letters, digits, `_` and `-`. */
const identifierCharacter = /[\p{L}\p{N}_-]/u;
/** Characters that glue a token to its neighbour into a path, an address or a longer name. */
const joiningCharacter = /[/\\@~]/u;
/** A URL: a scheme, `://` and everything up to whitespace or a closing bracket or quote. */
const urlPattern = /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s<>"'`)\]]+/gu;
/** Words after a bare name that say it names a folder or a file, not the identifier ("the skill-creator directory"). */
const fileNoun = /^[ \t]+(?:directory|directories|folder|folders|dir|repository|repo)\b/iu;

/** Options of `mentionStandsAlone`. */
export interface MentionContext {
  /** Text allowed right before the mention, such as `get_price.` before the parameter `link_id`. */
  prefixes?: readonly string[];
  /** Text allowed right after the mention, such as `.link_id` after the tool `get_price`. */
  suffixes?: readonly string[];
  /** True when the mention is written as code (between backticks); prose hints such as "directory" then do not apply. */
  code?: boolean;
  /** The text's URL spans (`urlSpans(text)`), when the caller has them already; computed otherwise. */
  urls?: ReadonlyArray<readonly [number, number]>;
}

const at = (text: string, index: number) =>
  index >= 0 && index < text.length ? (text[index] as string) : '';

/** Whether `text[index]` starts a glued continuation: an identifier character, a path joiner, or `.` / `:` followed by one. */
function continuesAfter(text: string, index: number): boolean {
  const next = at(text, index);
  if (next === '') return false;
  if (identifierCharacter.test(next) || joiningCharacter.test(next)) return true;
  if (next === '.' || next === ':') {
    const after = at(text, index + 1);
    return after !== '' && (identifierCharacter.test(after) || joiningCharacter.test(after));
  }
  return false;
}

/** Whether `text[index]` ends a glued continuation before the mention. */
function continuesBefore(text: string, index: number): boolean {
  const previous = at(text, index);
  if (previous === '') return false;
  if (identifierCharacter.test(previous) || joiningCharacter.test(previous)) return true;
  if (previous === '.' || previous === ':') {
    const before = at(text, index - 1);
    return before !== '' && (identifierCharacter.test(before) || joiningCharacter.test(before));
  }
  return false;
}

/**
 * Keys of search and filter syntaxes (GitHub, Slack, web search …): `label:code-review` is a value to search
 * for, not a reference to the skill `code-review`.
 */
const searchKeys = new Set(
  'is in no label labels repo repository org user author assignee mentions commenter involves team language lang filetype ext extension path site state status type sort order from to before after since until on during size stars forks topic project milestone head base review reviewed-by created updated closed merged pushed license archived fork channel has with intitle inurl intext'.split(
    ' ',
  ),
);
/** A search term `key:value`, as a whole whitespace-separated token. */
const searchTerm = /^[\p{L}_-]+:\S/u;

/**
 * Whether the name at `[start, end)` comes right after a namespace qualifier: one word standing alone before
 * a `:` (`superpowers:test-driven-development`, `github:create_issue`), as plugins and MCP clients qualify the
 * skills and tools they name. The name is then a mention, and the qualifier is kept as it is. A search term is
 * not a qualifier: its key is a search key (`label:`, `is:`, `repo:` …), or a term of the same form stands
 * beside it (`is:pr is:open label:code-review`).
 */
function qualifiedName(text: string, start: number, end: number): boolean {
  const colon = start - 1;
  if (at(text, colon) !== ':') return false;
  let from = colon;
  while (from > 0 && identifierCharacter.test(at(text, from - 1))) from--;
  if (from === colon || !/\p{L}/u.test(at(text, from))) return false;
  const before = at(text, from - 1);
  if (before !== '' && (joiningCharacter.test(before) || before === '.' || before === ':')) return false;
  if (searchKeys.has(text.slice(from, colon).toLowerCase())) return false;
  const bare = (token: string) => token.replace(/^[`'"([]+|[`'").,;\]]+$/gu, '');
  return !searchTerm.test(bare(tokenBefore(text, from))) && !searchTerm.test(bare(tokenAfter(text, end)));
}

const isSpace = (character: string) => /\s/u.test(character);

/** The whitespace-separated token that ends before `index` (whitespace between skipped). */
function tokenBefore(text: string, index: number): string {
  let to = index;
  while (to > 0 && isSpace(at(text, to - 1))) to--;
  let from = to;
  while (from > 0 && !isSpace(at(text, from - 1))) from--;
  return text.slice(from, to);
}

/** The whitespace-separated token that starts after `index` (whitespace between skipped). */
function tokenAfter(text: string, index: number): string {
  let from = index;
  while (from < text.length && isSpace(at(text, from))) from++;
  let to = from;
  while (to < text.length && !isSpace(at(text, to))) to++;
  return text.slice(from, to);
}

/**
 * Spans `[start, end)` of the URLs of a text (`https://…`, `file://…`, any `scheme://`).
 *
 * @example
 * urlSpans('see https://example.com/a-b.') // [[4, 27]]
 */
export function urlSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  // Every URL holds `://`: a text without it (most of them) has none, and the pattern need not run.
  if (!text.includes('://')) return spans;
  for (const match of text.matchAll(urlPattern)) {
    // A sentence's final stop or comma is not part of the address.
    const trimmed = match[0].replace(/[.,;:!?]+$/u, '');
    spans.push([match.index, match.index + trimmed.length]);
  }
  return spans;
}

/**
 * Whether `text[start, end)` stands alone as a mention of an identifier: the token it sits in is the name
 * itself. It does not when a letter, digit, `_` or `-` touches either side (`skill-creator-path`,
 * `pre-item_qa`), when a path or address joiner does (`skill-creator/`, `./skill-creator/x.py`, `a\b`,
 * `user@host`), when a `.` or `:` glues it to more of a token (`skill-creator.md`, `docs.skill-creator`),
 * a namespace qualifier aside (`superpowers:skill-creator` mentions `skill-creator`; a search term such as
 * `label:skill-creator` does not), when it lies inside a URL, or, written bare, when the next word says it
 * names a folder ("the skill-creator directory"). `prefixes` and `suffixes` admit the qualified forms a caller knows
 * (`get_price.link_id`). A sentence's final stop, a comma, brackets, quotes and backticks are boundaries.
 *
 * @example
 * mentionStandsAlone('Load skill-creator first.', 5, 18) // true
 * mentionStandsAlone('cd skill-creator/scripts', 3, 16) // false
 */
export function mentionStandsAlone(
  text: string,
  start: number,
  end: number,
  context: MentionContext = {},
): boolean {
  const prefixed = (context.prefixes ?? []).some(
    (prefix) => prefix !== '' && text.startsWith(prefix, start - prefix.length),
  );
  const suffix = (context.suffixes ?? []).find(
    (candidate) =>
      candidate !== '' && text.startsWith(candidate, end) && !continuesAfter(text, end + candidate.length),
  );
  if (!prefixed && !qualifiedName(text, start, end) && continuesBefore(text, start - 1)) return false;
  if (suffix === undefined && continuesAfter(text, end)) return false;
  if ((context.urls ?? urlSpans(text)).some(([from, to]) => start < to && end > from)) return false;
  if (!context.code && fileNoun.test(text.slice(end, end + 40))) return false;
  return true;
}

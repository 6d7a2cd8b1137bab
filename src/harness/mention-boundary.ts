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
    if (previous === ':' && qualifiesName(text, index)) return false;
    return before !== '' && (identifierCharacter.test(before) || joiningCharacter.test(before));
  }
  return false;
}

/**
 * Whether the `:` at `colon` ends a namespace qualifier: one word standing alone before it
 * (`superpowers:test-driven-development`, `github:create_issue`), as plugins and MCP clients qualify the
 * skills and tools they name. The name after it is a mention; the qualifier is kept as it is.
 */
function qualifiesName(text: string, colon: number): boolean {
  let start = colon;
  while (start > 0 && identifierCharacter.test(at(text, start - 1))) start--;
  if (start === colon || !/\p{L}/u.test(at(text, start))) return false;
  const before = at(text, start - 1);
  return before === '' || !(joiningCharacter.test(before) || before === '.' || before === ':');
}

/**
 * Spans `[start, end)` of the URLs of a text (`https://…`, `file://…`, any `scheme://`).
 *
 * @example
 * urlSpans('see https://example.com/a-b.') // [[4, 27]]
 */
export function urlSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
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
 * a namespace qualifier aside (`superpowers:skill-creator` mentions `skill-creator`), when it lies inside a URL, or, written bare, when the next word says it names a folder ("the
 * skill-creator directory"). `prefixes` and `suffixes` admit the qualified forms a caller knows
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
  if (!prefixed && continuesBefore(text, start - 1)) return false;
  if (suffix === undefined && continuesAfter(text, end)) return false;
  if ((context.urls ?? urlSpans(text)).some(([from, to]) => start < to && end > from)) return false;
  if (!context.code && fileNoun.test(text.slice(end, end + 40))) return false;
  return true;
}

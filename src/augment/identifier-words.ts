// Identifier words and case styles: one Unicode-aware splitter and one joiner, for every kind of identifier
// (tool names, parameter keys, skill ids) in any script.

/**
 * Splits an identifier into lower-case words at case humps (`getProductInfo`, `HTTPServer`, in any script
 * with letter case) and at every run of characters that are neither letters, marks nor digits (`_`, `-`,
 * `.`, `/`, `:`, spaces, `#` …). Letters of scripts without case (`价格`) stay whole words.
 *
 * @example
 * identifierWords('HTTPServer_status') // ['http', 'server', 'status']
 * identifierWords('prixÉtéTotal') // ['prix', 'été', 'total']
 */
export function identifierWords(name: string): string[] {
  return name
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/** The case styles words can be joined in. */
export type CaseStyle = 'snake' | 'camel' | 'kebab';

/**
 * Joins words in a case style.
 *
 * @example
 * formatWords(['look', 'up', 'flights'], 'camel') // 'lookUpFlights'
 */
export function formatWords(words: readonly string[], style: CaseStyle): string {
  if (style === 'snake') return words.join('_');
  if (style === 'kebab') return words.join('-');
  return words
    .map((word, index) => (index === 0 ? word : `${word.slice(0, 1).toUpperCase()}${word.slice(1)}`))
    .join('');
}

/**
 * The case style an identifier is written in (`snake` when it holds neither `-` nor a hump).
 *
 * @example
 * caseStyleOf('getPrice') // 'camel'
 */
export function caseStyleOf(name: string): CaseStyle {
  if (name.includes('-')) return 'kebab';
  if (!name.includes('_') && /\p{Ll}\p{Lu}/u.test(name)) return 'camel';
  return 'snake';
}

/**
 * A lower-case English word in the singular, as far as comparing words needs: a final `s` goes from words
 * of four letters or more (`agents` → `agent`, `types` → `type`), never from `ss` (`address`). Good enough to
 * compare a name's words with a text's, not a lemmatiser.
 *
 * @example
 * singularWord('agents') // 'agent'
 * singularWord('address') // 'address'
 */
export function singularWord(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

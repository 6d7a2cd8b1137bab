// Names a text quotes as words to match, not as references: "Load when a message mentions "azure_devops" or
// "azure"", "when the user types 'deploy-now'". What a user writes does not change when the harness renames
// what it calls the thing, so a rename cannot follow such a word: the name stays.

/** A verb or noun that introduces the words something matches: what a message mentions, says or contains. */
const matchingCue =
  /\b(?:mentions?|mentioning|says?|saying|types?|typing|writes?|writing|contains?|containing|includes?|including|matches|matching|keywords?|triggers?|triggered\s+by|words?|phrases?)\b/giu;

/** A quoted word or phrase: straight or curly double quotes, or single quotes around a token. */
const quoted = /"([^"\n]{1,80})"|“([^”\n]{1,80})”|'([^'\s][^'\n]{0,78})'/gu;

/**
 * Of `names`, those some text quotes after a cue of matching ("mentions", "says", "types", "contains",
 * "keywords", "triggers", …), within the cue's sentence: words a message is matched against, which a rename
 * cannot follow.
 *
 * @example
 * namesQuotedAsWords(['azure_devops', 'github'], ['Load when a message mentions "azure_devops" or "azure".'])
 * // Set { 'azure_devops' }
 */
export function namesQuotedAsWords(names: Iterable<string>, texts: Iterable<string>): Set<string> {
  const wanted = new Set(names);
  const found = new Set<string>();
  if (wanted.size === 0) return found;
  for (const text of texts) {
    if (!/["“']/u.test(text)) continue;
    for (const cue of text.matchAll(matchingCue)) {
      const from = cue.index + cue[0].length;
      // The cue's sentence: up to a full stop that ends it, or the end of the line.
      const rest = text.slice(from);
      const end = rest.search(/[.!?。](?:\s|$)|\n/u);
      const clause = end === -1 ? rest : rest.slice(0, end);
      for (const match of clause.matchAll(quoted)) {
        const word = (match[1] ?? match[2] ?? match[3] ?? '').trim();
        if (wanted.has(word)) found.add(word);
      }
    }
  }
  return found;
}

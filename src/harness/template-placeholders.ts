// Where a Handlebars template holds code rather than prose: its `{{ … }}` blocks (a triple-stash
// `{{{ … }}}` too). The one rule by which the symbol table skips them, the kit's mention helpers blank them
// and drift counts them as facts a rewording keeps.

const placeholderPattern = /\{\{[\s\S]*?\}\}\}?/g;

/**
 * The spans `[start, end)` of a template's `{{ … }}` blocks, in order (as `urlSpans` gives a text's URLs).
 *
 * @example
 * templatePlaceholderSpans('Hi {{name}}, {{{html}}}') // [[3, 11], [13, 23]]
 */
export function templatePlaceholderSpans(template: string): Array<[number, number]> {
  return [...template.matchAll(placeholderPattern)].map((match) => [
    match.index,
    match.index + match[0].length,
  ]);
}

/**
 * The template with its `{{ … }}` blocks replaced by spaces, offsets kept: the prose a reader sees.
 *
 * @example
 * blankTemplatePlaceholders('Use {{tool}} now') // 'Use          now'
 */
export function blankTemplatePlaceholders(template: string): string {
  return template.replace(placeholderPattern, (block) => ' '.repeat(block.length));
}

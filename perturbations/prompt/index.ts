// perturbations/prompt/index.ts — the prompt-structure operators, as an explicit list.
import type { Operator } from '../../src/kit/index.js';
import { headingStyle } from './heading-style.js';
import { listStyle } from './list-style.js';
import { mergeSections } from './merge-sections.js';
import { reorderSections } from './reorder-sections.js';
import { retitle } from './retitle.js';
import { splitSection } from './split-section.js';
import { whitespaceNoise } from './whitespace-noise.js';

export { headingStyle, listStyle, mergeSections, reorderSections, retitle, splitSection, whitespaceNoise };

/**
 * The operators of the `prompt` dimension (system prompt structure), in a fixed order.
 *
 * @example
 * const registry = createRegistry([...promptOperators, ...hookOperators]);
 */
export const promptOperators: readonly Operator[] = [
  reorderSections,
  headingStyle,
  listStyle,
  retitle,
  mergeSections,
  splitSection,
  whitespaceNoise,
];

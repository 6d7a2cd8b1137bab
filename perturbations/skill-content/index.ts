// The skill-content operators, as an explicit list for registries.
import type { Operator } from '../../src/kit/index.js';
import { listStyle } from './list-style.js';
import { mergeSkills } from './merge.js';
import { paraphraseLexicon } from './paraphrase-lexicon.js';
import { paraphraseModel } from './paraphrase-model.js';
import { addPreamble } from './preamble.js';
import { reorderRules } from './reorder-rules.js';

export { addPreamble, listStyle, mergeSkills, paraphraseLexicon, paraphraseModel, reorderRules };

/**
 * Every built-in operator of the skill-content dimension (`paraphrase-model` needs a regenerate function).
 *
 * @example
 * createRegistry([...skillContentOperators]);
 */
export const skillContentOperators: readonly Operator[] = [
  reorderRules,
  listStyle,
  paraphraseLexicon,
  addPreamble,
  mergeSkills,
  paraphraseModel,
];

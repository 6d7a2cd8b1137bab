// skill-content/paraphrase-model — has a model paraphrase skill bodies and keeps a paraphrase only when every protected span, identifier mention and rule survives; all ids stay.

import { z } from 'zod';
import {
  affectedCount,
  defineOperator,
  identityRelabel,
  type Skill,
  unchanged,
} from '../../src/kit/index.js';
import { keepsProtectedSpans, protectedTexts, sameMentions } from './protected-spans.js';
import { countRules } from './rules.js';

const defaultInstruction =
  'Paraphrase these rules of an AI agent. Keep every rule and its meaning, the list structure and the number of rules, and the language of the text. Copy each protected span verbatim. Answer with the rewritten text only.';

/**
 * Asks `context.regenerate` to paraphrase a share (= severity, at least one) of the skill bodies, one
 * request per body with the body's protected spans (numbers and prices, quotes, code, identifiers, banned
 * terms, pin markers; see `findProtectedSpans`). An answer is kept only when every protected span occurs in
 * it at least as often as in the original, it mentions the same identifiers, and it has the same number of
 * rules (top-level list items); otherwise that body stays as it was. Ids do not change, so the relabel is
 * the identity; the preservation mode is `regenerate` because a model writes the text, and `applyOperator`
 * skips the operator when no regenerate function is given. Skips when every answer is refused.
 *
 * @example
 * await applyOperator(paraphraseModel, harness, { rng: 'seed', regenerate: (request) => teacher.paraphrase(request) });
 */
export const paraphraseModel = defineOperator({
  id: 'skill-content/paraphrase-model',
  version: 1,
  dimension: 'skill-content',
  mode: 'regenerate',
  description:
    'Has a model paraphrase skill bodies; keeps an answer only if protected spans, mentions and rule count survive.',
  params: z.object({ instruction: z.string().min(1).default(defaultInstruction) }),
  async apply(harness, { rng, severity, params, regenerate }) {
    if (!regenerate) return { skip: 'no regenerate function (a model) was given' };
    if (harness.skills.items.length === 0) return { skip: 'the harness has no skills' };
    const chosen = new Set(
      rng.fork('skills').sample(harness.skills.items, affectedCount(severity, harness.skills.items.length)),
    );
    const items: Skill[] = [];
    let refused = 0;
    let changed = false;
    // One request at a time, in registry order, so that a model with state answers deterministically.
    for (const skill of harness.skills.items) {
      if (!chosen.has(skill)) {
        items.push(skill);
        continue;
      }
      const answer = await regenerate({
        operator: 'skill-content/paraphrase-model',
        instruction: params.instruction,
        text: skill.body,
        protectedSpans: protectedTexts(skill.body, harness),
      });
      const body = skill.body.endsWith('\n') && !answer.endsWith('\n') ? `${answer}\n` : answer;
      const kept =
        body.trim() !== '' &&
        keepsProtectedSpans(skill.body, body, harness) &&
        sameMentions(skill.body, body, harness) &&
        countRules(body) === countRules(skill.body);
      if (!kept) refused++;
      if (kept && body !== skill.body) changed = true;
      items.push(kept ? { ...skill, body } : skill);
    }
    if (!changed && refused > 0)
      return {
        skip: `every paraphrase was refused (${refused}): a protected span, a mention or a rule was lost`,
      };
    if (!changed) return unchanged(harness);
    return { harness: { ...harness, skills: { ...harness.skills, items } }, relabel: identityRelabel };
  },
});

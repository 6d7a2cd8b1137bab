import { describe, expect, it } from 'vitest';
import { skillContentOperators } from '../../../perturbations/skill-content/index.js';

describe('skill-content operators', () => {
  it('lists every operator of the dimension once, each with a one-line description', () => {
    expect(skillContentOperators.map((operator) => `${operator.id}:${operator.mode}`)).toEqual([
      'skill-content/reorder-rules:exact',
      'skill-content/list-style:exact',
      'skill-content/paraphrase-lexicon:exact',
      'skill-content/preamble:exact',
      'skill-content/merge:exact',
      'skill-content/paraphrase-model:regenerate',
    ]);
    for (const operator of skillContentOperators) {
      expect(operator.dimension).toBe('skill-content');
      expect(operator.description).not.toContain('\n');
    }
  });
});

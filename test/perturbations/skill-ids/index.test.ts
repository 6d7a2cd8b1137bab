import { describe, expect, it } from 'vitest';
import { skillIdOperators } from '../../../perturbations/skill-ids/index.js';

describe('skill-ids operators', () => {
  it('lists every operator of the dimension once, each with a one-line description', () => {
    expect(skillIdOperators.map((operator) => operator.id)).toEqual([
      'skill-ids/rename',
      'skill-ids/namespace',
      'skill-ids/reorder',
      'skill-ids/rename-loader',
    ]);
    for (const operator of skillIdOperators) {
      expect(operator.dimension).toBe('skill-ids');
      expect(operator.mode).toBe('exact');
      expect(operator.description).not.toContain('\n');
    }
  });
});

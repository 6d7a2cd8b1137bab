import { describe, expect, it } from 'vitest';
import { toolOperators } from '../../../perturbations/tools/index.js';

describe('tools operators', () => {
  it('lists every operator of the dimension once, each exact with a one-line description', () => {
    expect(toolOperators.map((operator) => operator.id)).toEqual([
      'tools/rename',
      'tools/rename-parameters',
      'tools/reorder-properties',
      'tools/reword-descriptions',
      'tools/add-distractors',
      'tools/drop-unused',
      'tools/reorder',
      'tools/add-optional-parameters',
      'tools/nest-arguments',
      'tools/change-schema-style',
    ]);
    for (const operator of toolOperators) {
      expect(operator.dimension).toBe('tools');
      expect(operator.mode).toBe('exact');
      expect(operator.description).not.toContain('\n');
      expect(() => operator.params.parse({})).not.toThrow();
    }
  });
});

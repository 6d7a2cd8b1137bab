// Vocabulary partitions of the renaming operators: given `vocabulary: { part, parts }`, every new name an
// operator hands out (tool, parameter, skill id, loader and its argument) is in that part, for random
// harnesses of several domains, the travel harness and the live-stream fixture; and the laws still hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { namespaceSkillIds } from '../../perturbations/skill-ids/namespace.js';
import { renameSkillIds } from '../../perturbations/skill-ids/rename.js';
import { renameSkillLoader } from '../../perturbations/skill-ids/rename-loader.js';
import { renameTools } from '../../perturbations/tools/rename.js';
import { renameParameters } from '../../perturbations/tools/rename-parameters.js';
import { applyOperator, type Operator } from '../../src/augment/operator.js';
import { inVocabulary, vocabularyPart } from '../../src/augment/vocabulary.js';
import type { Harness } from '../../src/harness/schema.js';
import { checkOperatorLaws, randomLawCase } from '../../src/testing/index.js';
import { lawCases } from '../support/law-cases.js';

const operators = [
  renameTools,
  renameParameters,
  renameSkillIds,
  renameSkillLoader,
  namespaceSkillIds,
] as unknown as Operator[];

function propertyKeys(schema: unknown, keys: Set<string>): void {
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  if (typeof node.properties === 'object' && node.properties !== null)
    for (const key of Object.keys(node.properties)) keys.add(key);
  for (const value of Object.values(node)) propertyKeys(value, keys);
}

/** Tool names, parameter keys, skill ids, the loader and its argument. */
function names(harness: Harness): Set<string> {
  const keys = new Set<string>([harness.skills.loader.tool, harness.skills.loader.argument]);
  for (const tool of harness.tools.items) {
    keys.add(tool.name);
    propertyKeys(tool.parameters, keys);
  }
  for (const skill of harness.skills.items) keys.add(skill.id);
  return keys;
}

describe('vocabulary partitions', () => {
  it('a name has one part, the same on every call', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 2, max: 64 }), (name, parts) => {
        const part = vocabularyPart(name, parts);
        expect(part).toBeGreaterThanOrEqual(0);
        expect(part).toBeLessThan(parts);
        expect(vocabularyPart(name, parts)).toBe(part);
        expect(inVocabulary(name, { part, parts })).toBe(true);
        expect(inVocabulary(name, { part: (part + 1) % parts, parts })).toBe(false);
      }),
    );
  });

  it('every new name of a renaming operator is in the part it was given', async () => {
    const fixed = await lawCases();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom(...operators),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom(0.3, 0.6, 1),
        fc.boolean(),
        async (caseSeed, operator, part, severity, useFixture) => {
          const lawCase = useFixture
            ? (fixed[caseSeed % fixed.length] as (typeof fixed)[number])
            : randomLawCase(caseSeed);
          const trajectory = lawCase.trajectories[caseSeed % Math.max(1, lawCase.trajectories.length)];
          const vocabulary = { part, parts: 3 };
          const result = await applyOperator(operator, lawCase.harness, {
            rng: `vocabulary/${caseSeed}`,
            severity,
            params: { vocabulary },
            ...(trajectory ? { trajectory } : {}),
          });
          if ('skip' in result) return;
          const before = names(lawCase.harness);
          const fresh = [...names(result.harness)].filter((name) => !before.has(name));
          for (const name of fresh) expect(vocabularyPart(name, 3), `${operator.id}: ${name}`).toBe(part);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it('the operators obey their laws with a vocabulary', async () => {
    for (const operator of operators)
      await checkOperatorLaws(operator, {
        params: [{ vocabulary: { part: 1, parts: 2 } }],
        runs: 15,
      });
  }, 300_000);

  it('refuses a part outside the partition', async () => {
    await expect(
      applyOperator(renameTools as unknown as Operator, randomLawCase(1).harness, {
        params: { vocabulary: { part: 2, parts: 2 } },
      }),
    ).rejects.toThrow(/vocabulary/);
  });
});

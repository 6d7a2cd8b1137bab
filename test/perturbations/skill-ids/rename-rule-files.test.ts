// skill-ids/rename on OpenHands' microagents read as rule files (All-Hands-AI/OpenHands @156d0686, `skills/`):
// a description the door made from `triggers` quotes words a user types ("Load when a message mentions
// "azure_devops" or "azure"."), which a rename cannot follow, so those ids stay; and a pool entry that gave a
// skill a phrase does not fit an example whose replies name that skill bare ("Per fix_test, I check out…").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../../perturbations/index.js';
import { renameSkillIds } from '../../../perturbations/skill-ids/rename.js';
import { augmentExample } from '../../../src/augment/augment.js';
import { applyOperator } from '../../../src/augment/operator.js';
import { compilePolicy, parsePolicy } from '../../../src/augment/policy.js';
import { createRegistry } from '../../../src/augment/registry.js';
import { createVariantPool } from '../../../src/augment/variant-pool.js';
import { readRuleFile } from '../../../src/harness/importers/rule-files.js';
import { skeletonHarness } from '../../../src/harness/importers/skeleton.js';
import { renderSystemPrompt } from '../../../src/harness/render-prompt.js';
import type { Skill } from '../../../src/harness/schema.js';
import type { Trajectory } from '../../../src/trajectory/schema.js';
import { validateTrajectory } from '../../../src/trajectory/validate-trajectory.js';
import { call, result } from '../../support/travel-harness.js';

const folder = 'test/perturbations/fixtures/openhands-skills';
const skill = (file: string): Skill => {
  const read = readRuleFile(readFileSync(join(folder, file), 'utf8'), file, file.replace(/\.md$/, ''));
  if (!read.result.success) throw new Error(`${file} does not read`);
  return read.result.data;
};
const harness = skeletonHarness({
  id: 'openhands-skills',
  skills: ['azure_devops.md', 'code-review.md', 'fix_test.md', 'swift-linux.md'].map(skill),
});
const description = (id: string, of = harness) =>
  of.skills.items.find((entry) => entry.id === id)?.description;

describe('skill-ids/rename on rule files described from their triggers', () => {
  it('keeps an id its description quotes as a word to match, and renames the others', async () => {
    expect(description('azure_devops')).toBe('Load when a message mentions "azure_devops" or "azure".');
    const renamed = new Set<string>();
    for (const style of ['snake', 'camel', 'kebab', 'opaque', 'phrase', 'non-ascii'] as const)
      for (let seed = 0; seed < 6; seed++) {
        const applied = await applyOperator(renameSkillIds, harness, {
          rng: `triggers-${style}-${seed}`,
          severity: 1,
          params: { style },
        });
        if ('skip' in applied) throw new Error(applied.skip);
        const ids = applied.harness.skills.items.map((entry) => entry.id);
        expect(ids).toContain('azure_devops');
        expect(ids).toContain('swift-linux');
        expect(description('azure_devops', applied.harness)).toBe(description('azure_devops'));
        expect(description('swift-linux', applied.harness)).toBe(description('swift-linux'));
        for (const id of ids) renamed.add(id);
      }
    // `code-review` ("mentions "/codereview"") and `fix_test` ("mentions "/fix_test"") are renamed.
    expect([...renamed].filter((id) => !['azure_devops', 'swift-linux'].includes(id)).length).toBeGreaterThan(
      10,
    );
  });
});

describe('a pool entry with phrase ids', () => {
  const fixTest = harness.skills.items.find((entry) => entry.id === 'fix_test') as Skill;
  const example = (reply: string): Trajectory => ({
    id: `fix-${reply.length}`,
    harness: { id: harness.id },
    context: {},
    messages: [
      { role: 'system', content: renderSystemPrompt(harness, {}) },
      { role: 'user', content: '/fix_test BRANCH_NAME=fix-parse' },
      call('load_skill', { skill_id: 'fix_test' }, 'c1'),
      result('c1', fixTest.body),
      { role: 'assistant', content: reply },
    ],
  });
  const phrases = compilePolicy(
    parsePolicy({
      severity: 1,
      dimensions: {
        'skill-ids': { probability: 1, operators: [{ op: 'skill-ids/rename', params: { style: 'phrase' } }] },
      },
    }),
    createRegistry(builtinOperators),
  );

  it('is not drawn for an example whose reply names the skill bare', async () => {
    const bare = example('Per fix_test, I check out branch fix-parse and run the test command.');
    const named = example('Following the fix_test skill, I check out branch fix-parse.');
    for (const trajectory of [bare, named])
      expect(validateTrajectory(trajectory, harness).issues).toEqual([]);
    const pool = createVariantPool(harness, { plan: phrases, seed: 'phrases', size: 8 }, (t, i) =>
      augmentExample(harness, t, i, { plan: phrases, seed: 'phrases' }),
    );
    const idOf = async (trajectory: Trajectory, index: number) => {
      const row = await pool.augment(trajectory, index);
      if (!('row' in row)) throw new Error('every example certifies');
      const moved = row.row.trajectory.messages.at(-1);
      return { reply: moved?.role === 'assistant' ? moved.content : undefined };
    };
    const bareReplies: unknown[] = [];
    const namedReplies: unknown[] = [];
    for (let index = 0; index < 8; index++) {
      bareReplies.push((await idOf(bare, index)).reply);
      namedReplies.push((await idOf(named, index)).reply);
    }
    // Where the reply says "the fix_test skill", a phrase reads as a name and is drawn ...
    expect(namedReplies.some((reply) => /Following the \S+ \S+ \S+ skill/u.test(String(reply)))).toBe(true);
    // ... where it names the skill bare, no row gives it a phrase: "Per fix test handbook, I check out".
    for (const reply of bareReplies) expect(String(reply)).toMatch(/^Per [^\s,]+, I check out/u);
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import { skeletonHarness } from '../../../src/harness/importers/index.js';
import { HarnessAugmentError } from '../../../src/harness/issues.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../../src/harness/render-prompt.js';
import { HarnessSchema, type Skill, type Tool } from '../../../src/harness/schema.js';

const tools: Tool[] = [
  {
    name: 'get_product_info_by_link_id',
    description: 'Product details by cart link number',
    parameters: { type: 'object', properties: { link_id: { type: 'integer' } }, required: ['link_id'] },
  },
];
const skills: Skill[] = [
  { id: 'item_qa', kind: 'reply', description: 'Product questions', body: 'Quote the price after coupons.' },
  {
    id: 'price_objection',
    kind: 'strategy',
    description: 'Price complaints',
    body: 'Pick one angle.',
    risk: 'medium',
  },
];

describe('skeletonHarness', () => {
  it('builds a harness that passes the schema and the harness rules', () => {
    const harness = skeletonHarness({
      id: 'live-room',
      description: 'Live-stream shopping assistant.',
      tools,
      skills,
    });
    expect(HarnessSchema.parse(harness)).toStrictEqual(harness);
    expect(parseHarness(harness)).toStrictEqual(harness);
    expect(harness.skills.loader).toStrictEqual(HarnessSchema.shape.skills.shape.loader.parse(undefined));
    expect([
      harness.skills.version,
      harness.hooks.version,
      harness.prompt.version,
      harness.tools.version,
    ]).toEqual(['1', '1', '1', '1']);
    expect(harness.hooks.items).toEqual([]);
    expect(harness.prompt.sections.map((section) => [section.id, section.pinned])).toEqual([
      ['role', true],
      ['skills', false],
      ['tools', false],
    ]);
  });

  it('renders a prompt that lists the skills, the loader and the tools', () => {
    const prompt = renderSystemPrompt(
      skeletonHarness({ id: 'live-room', description: 'Live-stream shopping assistant.', tools, skills }),
    );
    expect(prompt).toBe(
      [
        '## Role',
        'You are the assistant of live-room. Live-stream shopping assistant.',
        '',
        '## Skills',
        '- item_qa (reply): Product questions',
        '- price_objection (strategy): Price complaints',
        'Before you follow a skill, call `load_skill` with `skill_id` set to its id to read its rules.',
        '',
        '## Tools',
        '- get_product_info_by_link_id: Product details by cart link number',
      ].join('\n'),
    );
  });

  it('lists skills and tools through {{skillList}} and {{toolList}}, so prompt/list-style applies', async () => {
    const { listStyle } = await import('../../../perturbations/prompt/list-style.js');
    const { applyOperator } = await import('../../../src/augment/operator.js');
    const harness = skeletonHarness({ id: 'live-room', tools, skills });
    const applied = await applyOperator(listStyle, harness, { rng: 'x', params: { style: 'table' } });
    if ('skip' in applied) throw new Error(applied.skip);
    expect(renderSystemPrompt(applied.harness)).toContain('| item_qa | reply | Product questions |');
  });

  it('builds an empty harness from an id alone', () => {
    const harness = skeletonHarness({ id: 'empty' });
    expect(HarnessSchema.parse(harness)).toStrictEqual(harness);
    expect(renderSystemPrompt(harness)).toContain('You are the assistant of empty.');
  });

  it('lists no skills and names no loader for a harness of tools alone (the loader is not offered)', () => {
    const harness = skeletonHarness({ id: 'tools-only', tools });
    expect(harness.prompt.sections.map((section) => section.id)).toEqual(['role', 'tools']);
    expect(renderSystemPrompt(harness)).not.toContain('load_skill');
  });

  it('does not share objects with its inputs', () => {
    const harness = skeletonHarness({ id: 'live-room', tools, skills });
    expect(harness.tools.items[0]).not.toBe(tools[0]);
    expect(harness.tools.items[0]?.parameters).not.toBe(tools[0]?.parameters);
  });

  it('reports parts that do not make a valid harness, with paths', () => {
    const shadowing: Tool = { name: 'load_skill', description: 'x', parameters: { type: 'object' } };
    try {
      skeletonHarness({
        id: ' padded',
        tools: [shadowing],
        skills: [skills[0] as Skill, skills[0] as Skill],
      });
      expect.unreachable();
    } catch (error) {
      expect(HarnessAugmentError.isInstance(error)).toBe(true);
      expect((error as HarnessAugmentError).issues.map(({ code, path }) => ({ code, path }))).toEqual([
        { code: 'invalid_format', path: ['id'] },
      ]);
    }
    try {
      skeletonHarness({ id: 'shop', tools: [shadowing], skills: [skills[0] as Skill, skills[0] as Skill] });
      expect.unreachable();
    } catch (error) {
      expect((error as HarnessAugmentError).issues.map(({ code, path }) => ({ code, path }))).toEqual([
        { code: 'duplicate_id', path: ['skills', 'items', 1, 'id'] },
        { code: 'loader_shadowed', path: ['tools', 'items', 0, 'name'] },
      ]);
    }
  });
});

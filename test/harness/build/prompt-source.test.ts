// Prompt and hook sources of `hsa harness build`: a written prompt cut at its headings, sections and hooks
// in the harness format, and every problem located in its file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readHooksSource } from '../../../src/harness/build/hooks-source.js';
import { readPromptSource, sectionsFromMarkdown } from '../../../src/harness/build/prompt-source.js';
import { projectRoot } from '../../support/run-cli.js';

const dir = await mkdtemp(join(tmpdir(), 'hsa-prompt-source-'));
afterAll(() => rm(dir, { recursive: true, force: true }));
const file = async (name: string, text: string) => {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
};

describe('a written prompt', () => {
  it('is cut at its ## headings; the text before them is the pinned role', () => {
    const { items, issues } = sectionsFromMarkdown(
      [
        'You are the desk agent of {{harness.id}}.',
        '',
        '## Refund rules',
        'Refund within 24 hours.',
        '',
        '```md',
        '## not a heading inside a fence',
        '```',
        '### a sub-heading stays in its section',
        '## Refund rules',
        'Again.',
        '## 退款',
        '全额退款。',
      ].join('\r\n'),
      'prompt.md',
    );
    expect(issues).toEqual([]);
    expect(items.map((section) => [section.id, section.title, section.pinned])).toEqual([
      ['role', 'Role', true],
      ['refund_rules', 'Refund rules', false],
      ['refund_rules_2', 'Refund rules', false],
      ['section_4', '退款', false],
    ]);
    expect(items[0]?.template).toBe('You are the desk agent of {{harness.id}}.');
    expect(items[1]?.template).toBe(
      'Refund within 24 hours.\n\n```md\n## not a heading inside a fence\n```\n### a sub-heading stays in its section',
    );
  });

  // OpenHands' CodeAct prompt (All-Hands-AI/OpenHands at 156d0686, MIT: its first line, and its `<ROLE>`
  // block as a `## ROLE` section) has a role section of its own: the build titled the preamble "Role" too,
  // and every rendered prompt read "Role" twice.
  it('titles the preamble otherwise when the prompt has a Role section of its own', () => {
    const { items } = sectionsFromMarkdown(
      'You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.\n\n## ROLE\nYour primary role is to assist users by executing commands, modifying code, and solving technical problems effectively.\n',
      'prompt.md',
    );
    expect(items.map((section) => [section.id, section.title])).toEqual([
      ['role', 'Overview'],
      ['role_2', 'ROLE'],
    ]);
  });

  it('without a preamble has no role section; an empty file is refused with its line', () => {
    expect(sectionsFromMarkdown('## Tone\nBe brief.\n', 'p.md').items.map((section) => section.id)).toEqual([
      'tone',
    ]);
    expect(sectionsFromMarkdown('\n\n', 'p.md').issues).toEqual([
      expect.objectContaining({ code: 'no_sections', file: 'p.md', line: 1 }),
    ]);
  });

  it('reads the bundled example prompt', async () => {
    const read = await readPromptSource(join(projectRoot, 'examples/own-harness/prompt.md'));
    expect(read.issues).toEqual([]);
    expect(read.items.map((section) => section.id)).toEqual(['role', 'policy', 'customer_notes']);
  });
});

describe('sections and hooks in the harness format', () => {
  it('reads a list or { sections: [...] }, and locates a bad section', async () => {
    const list = await file('sections.yaml', '- id: tone\n  title: Tone\n  template: Be brief.\n');
    expect((await readPromptSource(list)).items).toEqual([
      { id: 'tone', title: 'Tone', template: 'Be brief.', pinned: false },
    ]);
    const wrapped = await file(
      'wrapped.json',
      JSON.stringify({ sections: [{ id: 'a', title: 'A', template: '' }] }),
    );
    expect((await readPromptSource(wrapped)).items.map((section) => section.id)).toEqual(['a']);
    const bad = await file(
      'bad.yaml',
      'sections:\n  - id: tone\n    title: Tone\n  - id: 9x\n    title: T\n    template: x\n',
    );
    const read = await readPromptSource(bad);
    expect(read.items).toEqual([]);
    expect(read.issues.map((issue) => [issue.line, issue.path])).toEqual([
      [2, ['sections', 0, 'template']],
      [4, ['sections', 1, 'id']],
    ]);
  });

  it('refuses unknown keys and a hook id given twice, with the line', async () => {
    const other = await file('other.yaml', 'items: []\nextra: 1\n');
    expect((await readHooksSource(other)).issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', line: 1 }),
    ]);
    const hook = (id: string) =>
      `- id: ${id}\n  stage: pre_reply\n  check: { type: max_length, max: 80 }\n  onFail: { action: block }\n`;
    const twice = await file('twice.yaml', hook('short') + hook('short'));
    expect((await readHooksSource(twice)).issues).toEqual([
      expect.objectContaining({ code: 'duplicate_id', path: [1, 'id'], line: 5 }),
    ]);
    const read = await readHooksSource(join(projectRoot, 'examples/own-harness/hooks.yaml'));
    expect(read.issues).toEqual([]);
    expect(read.items).toHaveLength(5);
    expect(read.items[0]).toMatchObject({ id: 'tool_arguments_valid', enabled: true });
  });
});

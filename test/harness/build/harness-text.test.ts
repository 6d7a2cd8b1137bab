// Writing a build back into an existing harness file: a YAML file keeps every byte no source changed
// (comments, quoting, folded lines), a JSON file every value as written; the text always reads back as the
// built harness.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownedItems } from '../../../src/harness/build/build-record.js';
import { newHarnessText, updatedHarnessText } from '../../../src/harness/build/harness-text.js';
import { type HarnessSource, mergeHarness } from '../../../src/harness/build/merge-harness.js';
import { sameCanonicalJson } from '../../../src/harness/canonical-json.js';
import { parseDocument } from '../../../src/harness/documents.js';
import { parseHarness } from '../../../src/harness/parse-harness.js';
import type { Tool } from '../../../src/harness/schema.js';
import { projectRoot } from '../../support/run-cli.js';

const handWritten = `# The desk agent, kept by hand.
id: desk
skills: { version: "3", items: [] }
hooks:
  version: "2"
  items: []   # none yet
prompt:
  version: "7"
  sections:
    - id: role      # who the agent is
      title: Role
      template: You staff the desk.
      pinned: true

    # Written by the support team.
    - id: tone
      title: Tone
      template: >-
        Be brief,
        be kind.
tools:
  version: "31"
  items:
    # looks up a user
    - name: lookup_user
      description: 'Find a user by email.'
      parameters: { type: object, properties: { email: { type: string } } }
    - name: reset_password
      description: Reset a password.
      parameters: { type: object }
`;

const tool = (name: string, description: string): Tool => ({
  name,
  description,
  parameters: { type: 'object' },
});

/** The file's tools as a source gave them at the last build (lookup_user, reset_password). */
const lastBuild = mergeHarness({
  sources: [
    {
      label: '--openai-tools tools.json',
      tools: parseHarness(parseDocument(handWritten, { format: 'yaml' }).value).tools.items,
    },
  ],
  existing: parseHarness(parseDocument(handWritten, { format: 'yaml' }).value),
  owned: ownedItems(undefined),
}).owned;

function build(sources: HarnessSource[], text = handWritten, format: 'yaml' | 'json' = 'yaml') {
  const existing = parseHarness(parseDocument(text, { format }).value);
  const merged = mergeHarness({ sources, existing, owned: lastBuild });
  return { merged, ...updatedHarnessText(text, format, merged) };
}

describe('updating a YAML harness file', () => {
  it('changes only the items the sources changed, and keeps every other byte', () => {
    const lookup = parseHarness(parseDocument(handWritten, { format: 'yaml' }).value).tools.items[0]!;
    const { merged, text, layoutKept } = build([
      {
        label: '--openai-tools tools.json',
        tools: [
          lookup,
          tool('reset_password', 'Reset the password of a user.'),
          tool('unlock_account', 'Unlock.'),
        ],
      },
      { label: '--hooks hooks.yaml', hooks: [] },
    ]);
    expect(layoutKept).toBe(true);
    expect(merged.changes.tools).toMatchObject({ added: ['unlock_account'], changed: ['reset_password'] });
    // Everything up to the changed tool is the file as it was, comments and folded text included.
    const kept = handWritten.slice(0, handWritten.indexOf('    - name: reset_password'));
    expect(text.startsWith(kept)).toBe(true);
    expect(text.slice(kept.length)).toBe(
      [
        '    - name: reset_password',
        '      description: Reset the password of a user.',
        '      parameters:',
        '        type: object',
        '    - name: unlock_account',
        '      description: Unlock.',
        '      parameters:',
        '        type: object',
        '',
      ].join('\n'),
    );
    expect(
      sameCanonicalJson(parseHarness(parseDocument(text, { format: 'yaml' }).value), merged.harness),
    ).toBe(true);
  });

  it('turns an empty flow list into a block list, and drops a removed item with its comment', () => {
    const hook = {
      id: 'short',
      stage: 'pre_reply' as const,
      enabled: true,
      check: { type: 'max_length' as const, max: 80 },
      onFail: { action: 'block' as const },
    };
    const { text, layoutKept } = build([
      { label: '--openai-tools tools.json', tools: [tool('reset_password', 'Reset a password.')] },
      { label: '--hooks hooks.yaml', hooks: [hook] },
    ]);
    expect(layoutKept).toBe(true);
    expect(text).toContain('hooks:\n  version: "2"\n  items:\n    - id: short\n      stage: pre_reply\n');
    expect(text).not.toContain('looks up a user');
    expect(text).toContain('  items:\n    - name: reset_password\n      description: Reset a password.\n');
    expect(text).toContain('    # Written by the support team.\n    - id: tone\n');
  });

  it('rewrites the id in its line, and adds a description after it', () => {
    const existing = parseHarness(parseDocument(handWritten, { format: 'yaml' }).value);
    const merged = mergeHarness({
      sources: [{ label: '--openai-tools tools.json', tools: existing.tools.items }],
      existing,
      owned: lastBuild,
      id: 'help-desk',
      description: 'yes',
    });
    const { text, layoutKept } = updatedHarnessText(handWritten, 'yaml', merged);
    expect(layoutKept).toBe(true);
    // "yes" is quoted: a YAML 1.1 reader would read it as true.
    expect(text).toBe(handWritten.replace('id: desk\n', 'id: help-desk\ndescription: "yes"\n'));
    const again = mergeHarness({
      sources: [{ label: '--openai-tools tools.json', tools: existing.tools.items }],
      existing: merged.harness,
      owned: lastBuild,
      description: 'Desk agent.',
    });
    expect(updatedHarnessText(text, 'yaml', again).text).toBe(
      handWritten.replace('id: desk\n', 'id: help-desk\ndescription: Desk agent.\n'),
    );
  });

  it('is unchanged, byte for byte, when nothing changed', () => {
    const existing = parseHarness(parseDocument(handWritten, { format: 'yaml' }).value);
    const { text } = build([{ label: '--openai-tools tools.json', tools: existing.tools.items }]);
    expect(text).toBe(handWritten);
  });

  it('keeps the layout of a real harness file, every part but the changed one untouched', async () => {
    const file = join(projectRoot, 'test/augment/fixtures/public/telecom/harness.yaml');
    const before = await readFile(file, 'utf8');
    const existing = parseHarness(parseDocument(before, { format: 'yaml' }).value);
    const owned = mergeHarness({
      sources: [{ label: 'skills', skills: existing.skills.items }],
      existing,
      owned: ownedItems(undefined),
    }).owned;
    const skills = existing.skills.items.map((skill) =>
      skill.id === 'data-roaming' ? { ...skill, description: 'Turn on data roaming abroad.' } : skill,
    );
    const merged = mergeHarness({ sources: [{ label: 'skills', skills }], existing, owned });
    const { text, layoutKept } = updatedHarnessText(before, 'yaml', merged);
    expect(layoutKept).toBe(true);
    const start = before.indexOf('    - id: data-roaming');
    const end = before.indexOf('    - id: line-suspension');
    expect(text.slice(0, start)).toBe(before.slice(0, start));
    expect(text.slice(text.indexOf('    - id: line-suspension'))).toBe(before.slice(end));
    expect(text.slice(start, text.indexOf('    - id: line-suspension'))).toContain(
      'description: Turn on data roaming abroad.',
    );
  });
});

describe('updating a JSON harness file', () => {
  it('keeps the values the file writes (no defaults added) and prints it again', () => {
    const input = {
      id: 'desk',
      skills: { version: '1', items: [] },
      hooks: { version: '1', items: [] },
      prompt: { version: '1', sections: [{ id: 'role', title: 'Role', template: 'Hi.' }] },
      tools: { version: '1', items: [tool('reset_password', 'Reset a password.')] },
    };
    const text = JSON.stringify(input);
    const existing = parseHarness(input);
    const merged = mergeHarness({
      sources: [{ label: 'tools', tools: [tool('unlock_account', 'Unlock.')] }],
      existing,
      owned: ownedItems(undefined),
    });
    const written = updatedHarnessText(text, 'json', merged);
    const value = JSON.parse(written.text);
    // The role section keeps its written form (no `pinned: false` added); the new tool follows the old one.
    expect(value.prompt.sections).toEqual(expect.arrayContaining([input.prompt.sections[0]]));
    expect(value.tools.items.map((item: Tool) => item.name)).toEqual(['reset_password', 'unlock_account']);
    expect(written.text).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(newHarnessText(merged.harness, 'json')).toBe(`${JSON.stringify(merged.harness, null, 2)}\n`);
  });
});

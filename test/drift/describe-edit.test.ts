// describeEdit: each kind of real edit, named in the library's vocabulary, with its preservation flag.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { describeEdit } from '../../src/drift/describe-edit.js';
import type { DriftDocument } from '../../src/drift/drift.js';
import { renderDriftHtml, renderDriftTable } from '../../src/drift/report.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { helpdeskFile } from './history-repo.js';

const base = parseHarness(YAML.parse(readFileSync(helpdeskFile, 'utf8')));
const clone = (): Harness => structuredClone(base);
const kinds = (before: Harness, after: Harness) =>
  describeEdit(before, after).map((change) => `${change.kind}${change.taskPreserving ? '' : '!'}`);

function editSkill(harness: Harness, id: string, edit: (body: string) => string): Harness {
  const skill = harness.skills.items.find((item) => item.id === id);
  if (skill) skill.body = edit(skill.body);
  return harness;
}

describe('describeEdit', () => {
  it('finds nothing between a harness and itself, or a version bump', () => {
    const bumped = clone();
    bumped.tools.version = '2027.1.1';
    expect(describeEdit(base, bumped)).toEqual([]);
  });

  it('skill content: reordered, reworded, changed, added and removed rules', () => {
    const reorder = editSkill(clone(), 'password-reset', (body) => {
      const lines = body.split('\n');
      [lines[5], lines[6]] = [lines[6] as string, lines[5] as string];
      return lines.join('\n');
    });
    expect(kinds(base, reorder)).toEqual(['rules-reordered']);
    const reword = editSkill(clone(), 'password-reset', (body) =>
      body.replace('Reply with where the reset link went', 'Tell the employee where the reset link went'),
    );
    expect(kinds(base, reword)).toEqual(['rules-reworded']);
    const number = editSkill(clone(), 'identity-verification', (body) =>
      body.replace('a six-digit code', 'an eight-digit code').replace('at 0, stop', 'at 1, stop'),
    );
    expect(kinds(base, number)).toEqual(['rules-changed!']);
    const negation = editSkill(clone(), 'password-reset', (body) =>
      body.replace('Never write a password', 'Always write a password'),
    );
    expect(kinds(base, negation)).toEqual(['rules-changed!']);
    const added = editSkill(
      clone(),
      'password-reset',
      (body) => `${body}7. Log the reset in the ticket with \`ticket_id\`.\n`,
    );
    expect(kinds(base, added)).toEqual(['rules-added!']);
    const removed = editSkill(clone(), 'password-reset', (body) => body.replace(/^6\..*\n/m, ''));
    expect(kinds(base, removed)).toEqual(['rules-removed!']);
  });

  it('tools: description reworded, parameter retyped, properties reordered, optional parameter added', () => {
    const harness = clone();
    const tool = harness.tools.items.find(
      (item) => item.name === 'reset_password',
    ) as Harness['tools']['items'][number];
    tool.description =
      'Sends a link to reset the password of a verified account; the employee sets the new password on the reset page.';
    const properties = tool.parameters.properties as Record<string, Record<string, unknown>>;
    tool.parameters.properties = Object.fromEntries(Object.entries(properties).reverse());
    (tool.parameters.properties as Record<string, Record<string, unknown>>).sign_out_everywhere = {
      type: 'string',
      description: 'End every open session of the account.',
    };
    (tool.parameters.properties as Record<string, unknown>).note = { type: 'string' };
    expect(kinds(base, harness)).toEqual([
      'properties-reordered',
      'tool-description-reworded',
      'optional-parameter-added',
      'parameter-retyped!',
      'schema-changed!',
    ]);
  });

  it('prompt: heading style, retitle, whitespace, a removed section', () => {
    const harness = clone();
    harness.prompt.headingStyle = 'xml';
    (harness.prompt.sections[0] as Harness['prompt']['sections'][number]).title = 'Your role';
    const session = harness.prompt.sections[1] as Harness['prompt']['sections'][number];
    session.template = `${session.template}\n\n`;
    harness.prompt.sections.pop();
    expect(kinds(base, harness)).toEqual([
      'section-retitled',
      'heading-style-changed',
      'whitespace-changed',
      'section-removed!',
    ]);
  });

  it('hooks: threshold, feedback reworded or changed, disabled', () => {
    const harness = clone();
    const hook = harness.hooks.items.find(
      (item) => item.id === 'reply_length',
    ) as Harness['hooks']['items'][number];
    if (hook.check.type === 'max_length') hook.check.max = 400;
    if (hook.onFail.action === 'retry')
      hook.onFail.feedback =
        'The reply has {{length}} characters and the chat allows {{max}}. Keep the result and the next step, drop the rest.';
    expect(kinds(base, harness)).toEqual(['threshold-changed', 'feedback-reworded']);
    const disabled = clone();
    (disabled.hooks.items[0] as Harness['hooks']['items'][number]).enabled = false;
    expect(kinds(base, disabled)).toEqual(['hook-disabled!']);
  });

  it('the HTML page and the table escape names and reasons', () => {
    const document: DriftDocument = {
      format: 'hsa-drift/1',
      policy: { name: '<b>p</b>', severity: 0.5, seed: '"s"', samples: 1, examples: 0 },
      versions: [{ label: '<v1>', source: 'x', valid: false, issues: ['<script>alert(1)</script>'] }],
      edits: [
        {
          from: '<v1>',
          to: 'v2&',
          changes: [
            {
              dimension: 'skill-ids',
              kind: 'skill-renamed',
              taskPreserving: true,
              count: 1,
              total: 2,
              subjects: ['<img src=x>'],
              map: { '<img src=x>': '"y"' },
              covered: false,
              reason: '<i>',
              suggestion: '<u>',
            },
          ],
          taskPreserving: true,
          covered: false,
          reason: 'not covered',
        },
      ],
      byDimension: {
        'skill-ids': { changes: 1, taskPreserving: 1, covered: 0 },
        'skill-content': { changes: 0, taskPreserving: 0, covered: 0 },
        tools: { changes: 0, taskPreserving: 0, covered: 0 },
        prompt: { changes: 0, taskPreserving: 0, covered: 0 },
        hooks: { changes: 0, taskPreserving: 0, covered: 0 },
      },
      byKind: { 'skill-renamed': { changes: 1, taskPreserving: 1, covered: 0 } },
      uncovered: [{ from: '<v1>', to: 'v2&', kind: 'skill-renamed', reason: '<i>', suggestion: '<u>' }],
    };
    const html = renderDriftHtml(document);
    expect(html).not.toMatch(/<img|<script>alert|<b>p|<i>|<u>|<v1>/);
    expect(html).toContain('&lt;img src=x&gt;');
    expect(renderDriftTable(document)).toMatch(/<v1> → v2& .*NOT covered/);
  });
});

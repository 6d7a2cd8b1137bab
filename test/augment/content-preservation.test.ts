// The content-preservation check: protected content of rewritten texts is kept or consistently renamed.
import { describe, expect, it } from 'vitest';
import { certify } from '../../src/augment/certificate.js';
import { checkContentPreservation } from '../../src/augment/content-preservation.js';
import { listKeepsOrder, orderedLists } from '../../src/augment/ordered-lists.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import { rederiveTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { baggageTrajectory, travelHarnessInput } from '../support/travel-harness.js';

const procedure = [
  'Workflow for `skill-creator`:',
  '',
  '1. Choose the workbook in ./skill-creator/data/.',
  '2. Load it with `python scripts/load.py --sheet 2`.',
  '3. Save it to <skill-creator-path>/out/report.xlsx.',
  '4. Verify at https://example.com/docs/skill-creator#verify, within 48 hours.',
  '',
  'Say "done" when finished.',
].join('\n');

function harnessWith(body: string): Harness {
  const input = travelHarnessInput();
  input.skills.items = [
    { id: 'skill-creator', kind: 'reply', description: 'Create new skills', body },
    ...input.skills.items.slice(1),
  ];
  return parseHarness(input);
}
const withBody = (harness: Harness, body: string): Harness => ({
  ...harness,
  skills: {
    ...harness.skills,
    items: harness.skills.items.map((skill, index) => (index === 0 ? { ...skill, body } : skill)),
  },
});

describe('orderedLists and listKeepsOrder', () => {
  it('finds numbered lists and announced bullet lists, not plain rule lists', () => {
    expect(orderedLists(procedure).map((list) => list.items.length)).toEqual([4]);
    expect(orderedLists('Rules:\n- Never guess a price.\n- Keep replies short.')).toEqual([]);
    // A list of fragments is not shown independent: its order may be a pipeline, a template or a scale.
    expect(orderedLists('Rules:\n- a\n- b').map((list) => list.items)).toEqual([['a', 'b']]);
    expect(orderedLists('Steps:\n- a\n- b').map((list) => list.items)).toEqual([['a', 'b']]);
    expect(orderedLists('<!-- hsa: independent -->\n1. a\n2. b')).toEqual([]);
    expect(orderedLists('```\n1. a\n2. b\n```')).toEqual([]);
    expect(listKeepsOrder({ numbered: false, introduction: '<!-- hsa: ordered -->' })).toBe(true);
  });
});

describe('checkContentPreservation', () => {
  const base = harnessWith(procedure);

  it('counts what it checks and passes an unchanged variant', () => {
    const result = checkContentPreservation(base, withBody(base, procedure), identityRelabel);
    expect(result.issues).toEqual([]);
    expect(result.kept).toBe(true);
    expect(result.checked.orderedLists).toBe(1);
    expect(result.checked.url).toBe(1);
    expect(result.checked.path).toBeGreaterThanOrEqual(3);
    expect(result.checked.code).toBeGreaterThanOrEqual(2);
    expect(result.checked.quote).toBe(1);
  });

  it('passes a consistent rename through the symbol table, which leaves paths and URLs alone', () => {
    const renamed = renameSymbols(base, { skills: { 'skill-creator': 'SK-07' } });
    const body = renamed.harness.skills.items[0]?.body as string;
    expect(body).toContain('Workflow for `SK-07`:');
    expect(body).toContain('./skill-creator/data/');
    expect(body).toContain('<skill-creator-path>/out/report.xlsx');
    expect(body).toContain('https://example.com/docs/skill-creator#verify');
    expect(checkContentPreservation(base, renamed.harness, renamed.relabel).issues).toEqual([]);
  });

  it('rejects a rename inside a path or a URL, a lost number, a changed code span or quote', () => {
    const changes: Array<[string, string]> = [
      ['./skill-creator/data/', './SK-07/data/'],
      ['https://example.com/docs/skill-creator#verify', 'https://example.com/docs/SK-07#verify'],
      ['48 hours', 'two days'],
      ['--sheet 2', '--sheet 3'],
      ['"done"', 'done'],
    ];
    for (const [from, to] of changes) {
      const result = checkContentPreservation(
        base,
        withBody(base, procedure.replace(from, to)),
        identityRelabel,
      );
      expect(result.kept, from).toBe(false);
      expect(
        result.issues.map((issue) => issue.code),
        from,
      ).toContain('protected_content_changed');
    }
  });

  it('rejects a reordered procedure or one that lost its numbers, and accepts another ordered style', () => {
    const lines = procedure.split('\n');
    const swapped = [...lines];
    [swapped[3], swapped[4]] = [`2. ${lines[4]?.slice(3)}`, `3. ${lines[3]?.slice(3)}`];
    const reordered = checkContentPreservation(base, withBody(base, swapped.join('\n')), identityRelabel);
    expect(reordered.issues.map((issue) => issue.code)).toEqual(['list_order_changed']);
    const bullets = procedure.replace(/^\d\. /gmu, '- ');
    const unmarked = checkContentPreservation(base, withBody(base, bullets), identityRelabel);
    expect(unmarked.issues.map((issue) => issue.code)).toEqual(['procedure_unmarked']);
    expect(unmarked).toMatchObject({ kept: true, meaningKept: false });
    const steps = procedure.replace(/^(\d)\. /gmu, 'Step $1: ');
    expect(checkContentPreservation(base, withBody(base, steps), identityRelabel).issues).toEqual([]);
    const table = procedure.replace(/^(\d)\. (.*)$/gmu, '| $1 | $2 |');
    expect(checkContentPreservation(base, withBody(base, table), identityRelabel).issues).toEqual([]);
  });

  it('lets tools be dropped or added but not a kept tool lose its content', () => {
    const input = travelHarnessInput();
    const tools = parseHarness(input);
    const dropped = { ...tools, tools: { ...tools.tools, items: tools.tools.items.slice(1) } };
    expect(checkContentPreservation(tools, dropped, identityRelabel).kept).toBe(true);
  });

  it('is not fooled by a symbol the variant adds: an unchanged `email` stays the same text', () => {
    const body = 'Ask whether the identifier is `email` or `username`.';
    const harness = withBody(base, body);
    const added = {
      ...harness,
      tools: {
        ...harness.tools,
        items: [
          ...harness.tools.items,
          {
            name: 'contact_lookup',
            description: 'Find a contact.',
            parameters: { type: 'object', properties: { email: { type: 'string' } } },
          },
        ],
      },
    };
    expect(checkContentPreservation(harness, added, identityRelabel).issues).toEqual([]);
  });

  it('makes the certificate fail with its reason', () => {
    const trajectory = rederiveTrajectory(baggageTrajectory(), base).trajectory;
    const variant = withBody(base, procedure.replace('48 hours', 'two days'));
    const certificate = certify({
      base,
      variant,
      original: trajectory,
      rewritten: trajectory,
      relabel: identityRelabel,
    });
    expect(certificate.certified).toBe(false);
    expect(certificate.checks.contentKept).toBe(false);
    expect(certificate.issues.some((issue) => issue.message.includes('"48"'))).toBe(true);
  });
});

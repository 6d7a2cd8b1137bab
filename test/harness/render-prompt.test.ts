import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importMcpTools } from '../../src/harness/importers/mcp-tools.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import { formatSection, renderSystemPrompt } from '../../src/harness/render-prompt.js';
import { renderTemplate } from '../../src/harness/template-engine.js';
import { projectRoot } from '../support/run-cli.js';
import { travelContext, travelHarnessInput } from '../support/travel-harness.js';

describe('renderSystemPrompt', () => {
  it('renders sections in order under Markdown headings', () => {
    const prompt = renderSystemPrompt(parseHarness(travelHarnessInput()), travelContext);
    expect(prompt).toBe(
      [
        '## Role\nYou are the support agent of airline-support.',
        '## Skills\n- rebooking (reply): Rebook a passenger onto another flight\n- baggage (reply): Answer baggage allowance questions\n- apology_first (strategy): Open with one short apology when a flight is disrupted\nCall `load_skill` before you use a skill.',
        '## Tools\n- find_flights: Find flights between two airports on a date. Pass `origin` and `destination` as IATA codes.\n- hold_seat: Hold a seat on a flight for 20 minutes.\n- get_baggage_policy: Baggage allowance for a fare class.',
        '## Passenger\nPassenger: Ana Souza on HA 212',
      ].join('\n\n'),
    );
  });

  // GitHub's MCP server (test/perturbations/fixtures): pull_request_review_write's description lists its
  // methods as "- create: …" lines. Pasted at the margin, each became an item of the tool list beside the
  // tools, so the prompt listed `create`, `submit_pending` and `delete_pending` as if they were tools.
  it('keeps a description of several lines inside its item, in the bullet and numbered styles', async () => {
    const listed = JSON.parse(
      await readFile(
        join(projectRoot, 'test/perturbations/fixtures/github-mcp-server-default-tools.json'),
        'utf8',
      ),
    );
    const input = travelHarnessInput();
    input.tools.items = importMcpTools(listed);
    input.prompt.sections = [{ id: 'tools', title: 'Tools', template: '{{toolList}}' }];
    const names = input.tools.items.map((tool) => tool.name);
    for (const listStyle of ['bullets', 'numbered'] as const) {
      input.prompt.listStyle = listStyle;
      const body = renderSystemPrompt(parseHarness(input), {}).split('\n').slice(1);
      const items = body.filter((line) => /^(?:-|\d+\.) /u.test(line));
      expect(items.map((line) => line.replace(/^(?:-|\d+\.) ([^:]+):.*$/u, '$1'))).toEqual(names);
      // Every line of a description stays: indented under its item, or blank.
      const review = input.tools.items.find((tool) => tool.name === 'pull_request_review_write');
      expect(review?.description).toContain('\n- create: ');
      for (const line of (review?.description ?? '').split('\n').slice(1))
        if (line.trim() !== '')
          expect(body.some((text) => /^ {2,}/u.test(text) && text.trim() === line.trim())).toBe(true);
    }
  });

  it('supports every heading style', () => {
    const section = { id: 'room_state', title: 'Room "state"' };
    expect(formatSection('markdown', section, 2, 'b')).toBe('## Room "state"\nb');
    expect(formatSection('xml', section, 2, 'b')).toBe(
      '<room_state title="Room &quot;state&quot;">\nb\n</room_state>',
    );
    expect(formatSection('numbered', section, 2, 'b')).toBe('2. Room "state"\nb');
    expect(formatSection('bracketed', section, 2, 'b')).toBe('[Room "state"]\nb');
  });

  it('names the section whose template fails for a context', () => {
    const harness = parseHarness(travelHarnessInput());
    expect(() => renderSystemPrompt(harness, {})).toThrow(
      /prompt section "passenger" failed to render: "name" not defined/,
    );
  });

  it('is deterministic', () => {
    const harness = parseHarness(travelHarnessInput());
    expect(renderSystemPrompt(harness, travelContext)).toBe(
      renderSystemPrompt(parseHarness(travelHarnessInput()), travelContext),
    );
  });
});

describe('template helpers', () => {
  const cases: Array<[string, unknown, string]> = [
    ['{{#if (eq a 1)}}one{{/if}}', { a: 1 }, 'one'],
    ['{{#if (ne a 1)}}other{{else}}one{{/if}}', { a: 1 }, 'one'],
    [
      '{{#if (and a b)}}both{{/if}}{{#if (or a c)}}either{{/if}}{{#if (not c)}}!c{{/if}}',
      { a: 1, b: 1, c: 0 },
      'botheither!c',
    ],
    ['{{#each xs}}{{add @index 1}}.{{this}} {{/each}}', { xs: ['a', 'b'] }, '1.a 2.b '],
    ['{{join xs " / "}}|{{join xs}}', { xs: ['a', 'b'] }, 'a / b|a, b'],
    ['{{json o}}', { o: { k: [1, '<'] } }, '{"k":[1,"<"]}'],
    ['{{upper s}} {{lower s}}', { s: 'Mé' }, 'MÉ mé'],
    ['{{default s "none"}}|{{default t "none"}}', { s: '', t: 'x' }, 'none|x'],
    ['<{{s}}>', { s: '<b>&' }, '<<b>&>'],
  ];
  for (const [template, data, expected] of cases) {
    it(`${template} → ${expected}`, () => expect(renderTemplate(template, data)).toBe(expected));
  }
});

// Templates and data come from harness files: nothing in them may run code or reach a prototype.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/harness/documents.js';
import { loadHarnessFile, parseHarness, safeParseHarness } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import { checkTemplate, renderTemplate } from '../../src/harness/template-engine.js';
import { travelHarnessInput } from '../support/travel-harness.js';

const marker = '__hsa_pwned__';
const globalRecord = globalThis as Record<string, unknown>;

afterEach(() => {
  expect(Object.prototype).not.toHaveProperty('polluted');
  expect(Object.prototype).not.toHaveProperty(marker);
  expect(globalRecord[marker]).toBeUndefined();
});

describe('template sandbox', () => {
  const attacks = [
    '{{constructor.constructor}}',
    '{{#with constructor}}{{constructor}}{{/with}}',
    '{{context.constructor.constructor "globalThis.__hsa_pwned__ = 1"}}',
    '{{#with "x"}}{{this.constructor.constructor}}{{/with}}',
    '{{skills.__proto__}}',
    '{{skills.[__defineGetter__]}}',
    '{{lookup context "constructor"}}',
    '{{log "leak"}}',
    '{{#each context}}{{@key}}{{/each}}{{__proto__.polluted}}',
  ];

  for (const attack of attacks) {
    it(`refuses ${attack}`, () => {
      const data = { context: { user: 'Ann' }, skills: [{ id: 'a' }] };
      let output: string | undefined;
      try {
        output = renderTemplate(attack, data);
      } catch {
        output = undefined;
      }
      // Either the template is refused, or it renders nothing at all.
      expect(output === undefined || output === '').toBe(true);
      expect(globalRecord[marker]).toBeUndefined();
    });
  }

  it('knows only the documented helpers', () => {
    expect(checkTemplate('{{lookup a "b"}}')).toMatch(/lookup/);
    expect(checkTemplate('{{log "x"}}')).toMatch(/log/);
    expect(checkTemplate('{{join skills ", "}}')).toBeUndefined();
  });

  it('is strict: a missing value is an error, not an empty string', () => {
    expect(() => renderTemplate('{{context.missing.deep}}', { context: {} })).toThrow(/"deep" not defined/);
  });
});

describe('harness data with prototype keys', () => {
  it('refuses __proto__ keys in a JSON harness and pollutes nothing', () => {
    const json = JSON.stringify(travelHarnessInput()).replace(
      '"id":"airline-support"',
      '"id":"airline-support","__proto__":{"polluted":true}',
    );
    expect(() => parseDocument(json, { format: 'json' })).toThrow(/forbidden keys/);
    const result = safeParseHarness(JSON.parse(json));
    expect(result.success).toBe(false);
    if (!result.success) expect(result.issues[0]?.code).toBe('forbidden_key');
  });

  it('treats constructor keys as plain data, and templates cannot climb from them', async () => {
    const input = travelHarnessInput() as unknown as Record<string, unknown>;
    const tools = (input.tools as { items: Array<{ parameters: Record<string, unknown> }> }).items;
    tools[0]!.parameters = {
      type: 'object',
      properties: { constructor: { type: 'string' }, prototype: { type: 'string' } },
    };
    const sections = (input.prompt as { sections: Array<{ template: string }> }).sections;
    const folder = mkdtempSync(join(tmpdir(), 'hsa-'));
    const file = join(folder, 'h.json');

    // A call through a path is refused when the harness is loaded: only the documented helpers exist.
    sections[2]!.template = '{{tools.constructor.constructor "return 1"}}';
    writeFileSync(file, JSON.stringify(input));
    await expect(loadHarnessFile(file)).rejects.toMatchObject({
      issues: [{ code: 'template_error', path: ['prompt', 'sections', 2, 'template'] }],
    });

    // A plain read of a prototype property loads, then fails when rendered, naming the section.
    sections[2]!.template = '{{tools.constructor.constructor}}';
    writeFileSync(file, JSON.stringify(input));
    const harness = await loadHarnessFile(file);
    expect(Object.keys(harness.tools.items[0]!.parameters.properties as object)).toEqual([
      'constructor',
      'prototype',
    ]);
    expect(() => renderSystemPrompt(harness, { passenger: { name: 'A', flight: 'B' } })).toThrow(
      /section "tools" failed to render/,
    );
  });

  it('renders the untouched harness normally', () => {
    const harness = parseHarness(travelHarnessInput());
    expect(renderSystemPrompt(harness, { passenger: { name: 'Ana', flight: 'HA 1' } })).toContain(
      'Passenger: Ana on HA 1',
    );
  });
});

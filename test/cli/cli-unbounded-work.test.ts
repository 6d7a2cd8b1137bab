// Small hostile inputs that asked for unbounded work (issue 44, item 4) end within seconds with exit 1 and
// the bound named: template nesting depth, render steps, JSON located by a linear scan.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { locateIssues } from '../../src/harness/documents.js';
import { maxRenderSteps, maxTemplateNesting, templateNesting } from '../../src/harness/template-engine.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const folder = mkdtempSync(join(tmpdir(), 'hsa-unbounded-'));
const harnessValue = () =>
  YAML.parse(readFileSync(join(projectRoot, 'fixtures/livestream/harness.yaml'), 'utf8'));

describe('template nesting and render work are bounded', () => {
  it('20,000 nested {{#if}} blocks: validate exits 1 at once, naming the nesting bound', {
    timeout: 60_000,
  }, async () => {
    const harness = harnessValue();
    harness.prompt.sections[0].template = `${'{{#if true}}'.repeat(20_000)}x${'{{/if}}'.repeat(20_000)}`;
    const file = join(folder, 'nested-if.json');
    writeFileSync(file, JSON.stringify(harness));
    const run = await hsa(['validate', file]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain(
      `blocks nest 20000 deep, more than ${maxTemplateNesting}, the limit of a template`,
    );
  });

  it('nesting is counted by a linear scan; comments and else do not count', () => {
    expect(templateNesting('{{#if a}}{{#each b}}x{{else}}y{{/each}}{{/if}}{{^c}}z{{/c}}')).toBe(2);
    expect(templateNesting('{{!-- {{#if a}}{{#if b}} --}}{{#if c}}{{/if}}')).toBe(1);
  });

  it('three nested {{#each}} over a 3,000-item context: render exits 1, naming the render bound', {
    timeout: 60_000,
  }, async () => {
    const harness = harnessValue();
    harness.prompt.sections[0].template =
      '{{#each context.items}}{{#each @root.context.items}}{{#each @root.context.items}}x{{/each}}{{/each}}{{/each}}';
    const file = join(folder, 'nested-each.json');
    writeFileSync(file, JSON.stringify(harness));
    const context = join(folder, 'context.json');
    writeFileSync(context, JSON.stringify({ items: Array.from({ length: 3_000 }, (_, index) => index) }));
    const run = await hsa(['render', file, '-c', context]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).toContain(`more than ${maxRenderSteps} block bodies`);
  });
});

describe('JSON is located without the YAML parser', () => {
  it('an issue in a JSON harness with a 200,000-key object is located within seconds', {
    timeout: 60_000,
  }, async () => {
    const harness = harnessValue();
    const wide = Object.fromEntries(Array.from({ length: 200_000 }, (_, index) => [`k${index}`, index]));
    harness.tools.items[0].parameters.properties.extra = { type: 'object', default: wide };
    harness.tools.items[1].parameters.type = 'string';
    const file = join(folder, 'wide.json');
    writeFileSync(file, JSON.stringify(harness));
    const run = await hsa(['validate', file]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/wide\.json:1 \$\.tools\.items\[1\]\.parameters\.type: /);
  });

  it('locates paths in JSON text by line, and the nearest ancestor of a missing one', () => {
    const text = JSON.stringify({ a: { b: [1, { c: 'x' }] }, 'd"': 2 }, null, 1);
    const issues = locateIssues(
      [
        { code: 'x', path: ['a', 'b', 1, 'c'], message: '' },
        { code: 'x', path: ['a', 'missing'], message: '' },
        { code: 'x', path: ['d"'], message: '' },
      ],
      { text, format: 'json' },
    );
    const lines = text.split('\n');
    expect(issues.map((issue) => lines[(issue.line as number) - 1]?.trim())).toEqual([
      '"c": "x"',
      '"a": {',
      '"d\\"": 2',
    ]);
  });
});

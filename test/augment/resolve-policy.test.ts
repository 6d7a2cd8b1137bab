// One source for policy resolution: `hsa augment --policy tools-only` and the README's library snippet with
// `presets['tools-only']` write the same rows byte for byte (the compiled plan keeps the policy's severity),
// and resolvePolicy reads names, files and severities the same way for every caller.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { augment } from '../../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { parseSeverity, resolvePolicy } from '../../src/augment/resolve-policy.js';
import { readAugmentedRows } from '../../src/augment/variant-sidecar.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { readJsonl } from '../../src/trajectory/read-jsonl.js';
import { projectRoot, runCli } from '../support/run-cli.js';

const harnessFile = join(projectRoot, 'fixtures/livestream/harness.yaml');
const registry = createRegistry(builtinOperators);

describe('resolvePolicy', () => {
  it('hsa augment --policy tools-only and the library with presets["tools-only"] write the same rows', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-policy-'));
    const trajectories = join(folder, 'gold.jsonl');
    const fixture = readFileSync(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8');
    writeFileSync(trajectories, `${fixture.split('\n').slice(0, 12).join('\n')}\n`);
    const out = join(folder, 'cli.jsonl');
    const run = runCli([
      'augment',
      '--harness',
      harnessFile,
      '--trajectories',
      trajectories,
      '--variants',
      '3',
      '--seed',
      '42',
      '--policy',
      'tools-only',
      '--out',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // The README's snippet, with the tools-only preset.
    const harness = await loadHarnessFile(harnessFile);
    const plan = compilePolicy(parsePolicy(presets['tools-only']), registry);
    const lines: string[] = [];
    for await (const row of augment(harness, readJsonl(trajectories), { plan, variants: 3, seed: 42 }))
      lines.push(`${JSON.stringify(row)}\n`);
    expect(lines.length).toBe(36);
    // The CLI writes rows by reference: resolved through its sidecar, they are the library's rows.
    let written = '';
    for await (const { row } of readAugmentedRows(out)) written += `${JSON.stringify(row)}\n`;
    expect(lines.join('') === written).toBe(true);
    // The preset is heavy; the rows say so.
    expect(JSON.parse(lines[0]!).provenance.ops[0].severity).toBe(1);
  });

  it('keeps the policy severity, takes an override, and reads a policy file', async () => {
    expect((await resolvePolicy('tools-only', { registry })).severity).toBe(1);
    expect((await resolvePolicy('hat', { registry })).severity).toBe(0.5);
    const overridden = await resolvePolicy('tools-only', { registry, severity: 'slight' });
    expect(overridden.severity).toBe(0.25);
    expect(overridden.plan.severity).toBe(0.25);
    const file = join(mkdtempSync(join(tmpdir(), 'hsa-policy-')), 'p.yaml');
    writeFileSync(file, 'severity: heavy\ndimensions:\n  tools:\n    operators: [tools/rename]\n');
    const fromFile = await resolvePolicy(file, { registry });
    expect(fromFile.severity).toBe(1);
    expect(fromFile.plan.operators.map((operator) => operator.id)).toEqual(['tools/rename']);
  });

  it('refuses an unknown preset and a severity out of range, naming them', async () => {
    await expect(resolvePolicy('nope', { registry })).rejects.toThrow(
      /unknown policy "nope"; presets: .*hat/,
    );
    expect(() => parseSeverity('1.5')).toThrow(/severity must be .* got "1.5"/);
    expect(() => parseSeverity('')).toThrow(/severity must be/);
    expect(parseSeverity('0.7')).toBe(0.7);
  });
});

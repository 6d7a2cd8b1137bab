// A run's memory budget: its caches hold no more bytes than the budget (by estimate), the least recently
// used entries go first, and a smaller budget only derives more again: a run with a tiny budget (or none)
// augments the live-stream fixture into the same rows, byte for byte, as a run with the default budget.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { augment } from '../../src/augment/augment.js';
import { createAugmentRun } from '../../src/augment/augment-run.js';
import { createRegistry } from '../../src/augment/registry.js';
import { resolvePolicy } from '../../src/augment/resolve-policy.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { createRunContext, defaultRunMemoryBytes, defineRunCache } from '../../src/harness/run-context.js';
import { projectRoot } from '../support/run-cli.js';

const harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
const { plan } = await resolvePolicy('hat', { registry: createRegistry(builtinOperators) });
const fixtureLines = (await readFile(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8'))
  .split('\n')
  .filter((line) => line.trim() !== '')
  .slice(0, 5);

/** The rows and rejects of augmenting the fixture's first lines in `run`, as JSON lines. */
async function augmentedLines(run: ReturnType<typeof createAugmentRun>): Promise<string[]> {
  const lines: string[] = [];
  const inputs = fixtureLines.map((line) => JSON.parse(line) as unknown);
  for await (const row of augment(harness, inputs, {
    plan,
    variants: 4,
    seed: 'run-memory',
    run,
    onReject: (reject) => lines.push(`reject ${JSON.stringify(reject)}`),
  }))
    lines.push(JSON.stringify(row));
  return lines;
}

const kilobyte = defineRunCache<string>('kilobyte texts', (text) => 2 * text.length);

describe('run memory budget', () => {
  it('holds no more than the budget, dropping the least recently used entries first', () => {
    const run = createRunContext({ memoryBytes: 20_000 });
    const texts = run.cache(kilobyte);
    for (let index = 0; index < 100; index++) texts.set(`text ${index}`, 'x'.repeat(512));
    const report = run.memoryReport();
    expect(report.budgetBytes).toBe(20_000);
    expect(report.heldBytes).toBeGreaterThan(0);
    expect(report.heldBytes).toBeLessThanOrEqual(20_000);
    expect(report.entries).toBeLessThan(100);
    expect(report.caches).toEqual(['kilobyte texts']);
    expect(texts.get('text 0')).toBeUndefined();
    expect(texts.get('text 99')).toBe('x'.repeat(512));
  });

  it('defaults to a documented budget, and refuses one that is not a whole number of bytes', () => {
    expect(createRunContext().memoryReport().budgetBytes).toBe(defaultRunMemoryBytes);
    for (const memoryBytes of [-1, 1.5, Number.NaN])
      expect(() => createRunContext({ memoryBytes })).toThrow(/memoryBytes must be a whole number/);
  });

  it('gives the same rows with a tiny budget, or none, as with the default', async () => {
    const roomy = createAugmentRun(harness);
    const expected = await augmentedLines(roomy);
    expect(expected.filter((line) => !line.startsWith('reject ')).length).toBeGreaterThan(10);
    const roomyReport = roomy.memoryReport();
    expect(roomyReport.heldBytes).toBeGreaterThan(0);
    expect(roomyReport.caches).toContain('trajectory forward facts');
    for (const memoryBytes of [0, 64_000]) {
      const tight = createAugmentRun(harness, { memoryBytes });
      expect(await augmentedLines(tight)).toEqual(expected);
      const report = tight.memoryReport();
      expect(report.heldBytes).toBeLessThanOrEqual(memoryBytes);
      // The tight run derived again what the roomy one read from its cache.
      expect(report.lookups.misses).toBeGreaterThan(roomyReport.lookups.misses);
    }
  });
});

// generateBench with a variant pool (`pool`, `hsa bench generate --variant-pool`, pipeline `bench.pool`):
// on the live-stream items and on items derived from the helpdesk trajectories, every row certifies again
// from scratch, its expectations stand in its variant, the shared harnesses are the bench's own (none is a
// training pool entry of the same seed), one-dimension attribution still holds, the rows do not depend on
// the other items, and the CLI writes what the API gives.
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { variantPoolFor } from '../../src/augment/augment.js';
import { certify } from '../../src/augment/certificate.js';
import type { Plan } from '../../src/augment/plan.js';
import { compileDimensionPlans, compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { readAugmentedRows } from '../../src/augment/variant-sidecar.js';
import {
  benchPoolLabel,
  checkExpectations,
  type GenerateBenchOptions,
  generateBench,
} from '../../src/bench/generate.js';
import { readBenchItems } from '../../src/bench/items.js';
import type { BenchItem, BenchRow } from '../../src/bench/schema.js';
import { expectationsAsPredictions, scoreRow } from '../../src/bench/score.js';
import { isItemCandidate, itemFromTrajectory } from '../../src/demo/derive-items.js';
import { hashHarness } from '../../src/harness/hash.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { forwardTrajectory } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { projectRoot, runCli } from '../support/run-cli.js';

const registry = createRegistry([...builtinOperators]);
const policy = parsePolicy(presets.hat);
const plan: Plan = compilePolicy(policy, registry);

async function collect(
  harness: Harness,
  items: readonly BenchItem[],
  options: Partial<GenerateBenchOptions> = {},
): Promise<{ rows: BenchRow[]; rejects: number }> {
  const rows: BenchRow[] = [];
  let rejects = 0;
  for await (const row of generateBench(harness, items, {
    plan,
    variants: 4,
    seed: 42,
    onReject: () => rejects++,
    ...options,
  }))
    rows.push(row);
  return { rows, rejects };
}

async function livestream() {
  const harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
  const items: BenchItem[] = [];
  for await (const record of readBenchItems(join(projectRoot, 'fixtures/livestream/bench/items.jsonl')))
    if ('item' in record && items.length < 40) items.push(record.item);
  return { harness, items };
}

async function helpdesk() {
  const harness = await loadHarnessFile(join(projectRoot, 'fixtures/helpdesk/harness.yaml'));
  const items = readFileSync(join(projectRoot, 'fixtures/helpdesk/trajectories.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Trajectory)
    .filter(isItemCandidate)
    .slice(0, 30)
    .map((gold, index) => itemFromTrajectory(harness, gold, `helpdesk-${index}`));
  return { harness, items };
}

/** The certificate of a row computed again from the item's gold, the row's harness and relabel alone. */
function certifiesFromScratch(base: Harness, item: BenchItem, row: BenchRow): boolean {
  const relabel = row.relabel as Parameters<typeof forwardTrajectory>[1];
  const rewritten = forwardTrajectory(item.gold, relabel, row.harness).trajectory;
  return certify({ base, variant: row.harness, original: item.gold, rewritten, relabel }).certified;
}

describe.each([
  ['live-stream', livestream],
  ['helpdesk', helpdesk],
])('generateBench with a variant pool on the %s items', (_, load) => {
  it('certifies every row from scratch, keeps the expectations in the variant, and shares harnesses', async () => {
    const { harness, items } = await load();
    expect(items.length).toBeGreaterThanOrEqual(10);
    const pooled = await collect(harness, items, { pool: { size: 8 } });
    const alone = await collect(harness, items);
    expect(pooled.rejects).toBe(alone.rejects);
    expect(pooled.rows.length).toBe(alone.rows.length);
    const byId = new Map(items.map((item) => [item.id, item]));
    for (const row of pooled.rows) {
      const item = byId.get(row.itemId) as BenchItem;
      expect(row.certificate.certified, row.id).toBe(true);
      expect(certifiesFromScratch(harness, item, row), row.id).toBe(true);
      expect(checkExpectations(row.expect, row.harness), row.id).toEqual([]);
      // The answer key, moved into the variant, scores the row as a whole pass.
      expect(scoreRow(row, expectationsAsPredictions([row])[0]), row.id).toMatchObject({ overall: true });
      if (row.variantIndex === 0) continue;
      const pool = row.provenance.pool as { seed: string; size: number } | undefined;
      // Drawn from the bench's pool, or (no entry certified) built for the item alone.
      if (pool) {
        expect(pool.seed.startsWith(`42/${benchPoolLabel}/`), row.id).toBe(true);
        expect(pool.size).toBe(8);
      }
    }
    const perturbed = (rows: BenchRow[]) => rows.filter((row) => row.variantIndex > 0);
    expect(perturbed(pooled.rows).filter((row) => row.provenance.pool).length).toBeGreaterThan(
      perturbed(pooled.rows).length / 2,
    );
    // Fewer harnesses than rows: rows that drew one entry and took no step of their own share it.
    const harnesses = (rows: BenchRow[]) =>
      new Set(perturbed(rows).map((row) => hashHarness(row.harness).harness));
    expect(harnesses(pooled.rows).size).toBeLessThan(harnesses(alone.rows).size);
    // Most variants really differ from the base.
    expect(
      perturbed(pooled.rows).filter((row) => row.certificate.variantHash !== row.certificate.baseHash).length,
    ).toBeGreaterThan(perturbed(pooled.rows).length * 0.8);
  }, 120_000);

  it("draws none of the training pool's variants of the same seed", async () => {
    const { harness, items } = await load();
    const training = variantPoolFor(harness, { plan, seed: 42, pool: { size: 8 } });
    const trainingHashes = new Set<string>();
    for (let index = 0; index < 8; index++)
      trainingHashes.add(hashHarness((await training?.entryData(index))?.harness as Harness).harness);
    expect(trainingHashes.size).toBeGreaterThan(4);
    const { rows } = await collect(harness, items, { pool: { size: 8 } });
    const shared = rows.filter(
      (row) => (row.provenance.pool as { perExample: number } | undefined)?.perExample === 0,
    );
    expect(shared.length).toBeGreaterThan(0);
    const baseHash = hashHarness(harness).harness;
    for (const row of shared) {
      const hash = hashHarness(row.harness).harness;
      if (hash !== baseHash) expect(trainingHashes.has(hash), row.id).toBe(false);
    }
  }, 120_000);

  it('gives the same rows byte for byte whatever the other items', async () => {
    const { harness, items } = await load();
    const all = await collect(harness, items, { pool: { size: 8 } });
    const subset = items.filter((_, index) => index % 3 === 1);
    const again = await collect(harness, subset, { pool: { size: 8 } });
    const expected = all.rows.filter((row) => subset.some((item) => item.id === row.itemId));
    expect(again.rows.map((row) => JSON.stringify(row))).toEqual(expected.map((row) => JSON.stringify(row)));
  }, 120_000);
});

describe('one-dimension attribution with a pool', () => {
  it('variant v still changes only its dimension: each dimension draws from its own pool', async () => {
    const { harness, items } = await livestream();
    const dimensionPlans = compileDimensionPlans(policy, registry);
    const { rows } = await collect(harness, items.slice(0, 12), {
      attribution: 'one-dimension',
      dimensionPlans,
      variants: 5,
      pool: { size: 4 },
    });
    const variants = rows.filter((row) => row.variantIndex > 0);
    expect(variants.length).toBeGreaterThan(40);
    expect(variants.filter((row) => row.provenance.pool).length).toBeGreaterThan(variants.length / 2);
    for (const row of variants) {
      const expected = dimensionPlans[(row.variantIndex - 1) % dimensionPlans.length]?.dimension;
      const changed = row.provenance.changed as string[];
      expect(
        changed.every((dimension) => dimension === expected),
        row.id,
      ).toBe(true);
    }
  }, 120_000);
});

describe('hsa bench generate --variant-pool', () => {
  it('writes what the API gives; a bad count is a usage error', async () => {
    const { harness, items } = await livestream();
    const folder = await mkdtemp(join(tmpdir(), 'hsa-bench-pool-'));
    const out = join(folder, 'bench.jsonl');
    const itemsFile = join(projectRoot, 'fixtures/livestream/bench/items.jsonl');
    const subset = join(folder, 'items.jsonl');
    const lines = readFileSync(itemsFile, 'utf8').split('\n').slice(0, 10);
    await import('node:fs/promises').then(({ writeFile }) => writeFile(subset, `${lines.join('\n')}\n`));
    const args = [
      'bench',
      'generate',
      '--items',
      subset,
      '--harness',
      join(projectRoot, 'fixtures/livestream/harness.yaml'),
    ];
    const run = runCli([...args, '--variants', '3', '--seed', '42', '--variant-pool', '6', '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('rows: 40 written + 0 rejected');
    let written = '';
    for await (const { row } of readAugmentedRows(out)) written += `${JSON.stringify(row)}\n`;
    const api = await collect(harness, items.slice(0, 10), { variants: 3, pool: { size: 6 } });
    expect(written).toBe(api.rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
    // The summary says where the variants came from, as the rows' provenance does.
    const perturbed = api.rows.filter((row) => row.variantIndex > 0);
    const drawn = perturbed.filter((row) => row.provenance.pool) as Array<
      BenchRow & { provenance: { pool: { index: number; perExample: number } } }
    >;
    expect(drawn.length).toBeGreaterThan(0);
    expect(run.stdout).toContain(
      `variant pool: ${new Set(drawn.map((row) => row.provenance.pool.index)).size} of 6 entries drawn; ${drawn.length} rows from the pool (${drawn.filter((row) => row.provenance.pool.perExample > 0).length} with steps of their own item), ${perturbed.length - drawn.length} built for their item alone`,
    );
    const bad = runCli([...args, '--variant-pool', 'many', '--out', join(folder, 'bad.jsonl')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--variant-pool');
  }, 120_000);
});

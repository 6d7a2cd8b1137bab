import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AugmentReject, augment } from '../../src/augment/augment.js';
import { defineOperator, unchanged } from '../../src/augment/operator.js';
import { oneOf, op, pipe } from '../../src/augment/plan.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

// Two small third-party style operators: the same surface a user gets.
const renameOneTool = defineOperator({
  id: 'tools/rename-one',
  version: 1,
  dimension: 'tools',
  mode: 'exact',
  description: 'Renames one tool; calls follow.',
  params: z.object({ suffix: z.string().default('_v2') }),
  apply(harness, { rng, severity, params }) {
    if (severity === 0) return unchanged(harness);
    const tool = rng.pick(harness.tools.items);
    return renameSymbols(harness, { tools: { [tool.name]: `${tool.name}${params.suffix}` } });
  },
});
const headingStyle = defineOperator({
  id: 'prompt/heading',
  version: 1,
  dimension: 'prompt',
  mode: 'exact',
  description: 'Sets the heading style.',
  params: z.object({}),
  apply(harness, { rng, severity }) {
    if (severity === 0) return unchanged(harness);
    const headingStyle = rng.pick(['xml', 'numbered', 'bracketed'] as const);
    return { harness: { ...harness, prompt: { ...harness.prompt, headingStyle } }, relabel: { steps: [] } };
  },
});

const plan = pipe(op(renameOneTool), oneOf([[1, op(headingStyle)]]));
const harness = travelHarness();
const trajectories = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ ...baggageTrajectory(), id }));

async function collect(input: unknown[], options: Partial<Parameters<typeof augment>[2]> = {}) {
  const rows: string[] = [];
  const rejects: AugmentReject[] = [];
  for await (const row of augment(harness, input, {
    plan,
    variants: 3,
    seed: 7,
    onReject: (reject) => rejects.push(reject),
    ...options,
  })) {
    rows.push(JSON.stringify(row));
  }
  return { rows, rejects };
}

describe('augment', () => {
  it('writes one certified row per (trajectory, variant), in order', async () => {
    const { rows, rejects } = await collect(trajectories);
    expect(rejects).toEqual([]);
    const parsed = rows.map((row) => JSON.parse(row));
    expect(parsed.map((row) => row.id)).toEqual(
      trajectories.flatMap((t) => [0, 1, 2].map((v) => `${t.id}/${v}`)),
    );
    for (const row of parsed) {
      expect(row.certificate.certified).toBe(true);
      expect(row.provenance.ops.map((record: { name: string }) => record.name)).toEqual([
        'tools/rename-one',
        'prompt/heading',
      ]);
      expect(row.provenance.changed).toEqual(['tools', 'prompt']);
      expect(row.variantId).toMatch(/^v_[0-9a-f]{20}$/);
    }
  });

  it('is deterministic, and variants differ from each other', async () => {
    const first = await collect(trajectories);
    const second = await collect(trajectories);
    expect(second.rows).toEqual(first.rows);
    // Rows share a variant exactly when they drew the same entry of the variant pool.
    const entryOf = new Map<string, number>();
    for (const row of first.rows.map((text) => JSON.parse(text))) {
      const known = entryOf.get(row.variantId);
      if (known !== undefined) expect(row.provenance.pool.index).toBe(known);
      entryOf.set(row.variantId, row.provenance.pool.index);
    }
    // Built for each example alone (no pool), every variant is its own.
    const own = await collect(trajectories, { pool: { size: 0 } });
    const variantIds = own.rows.map((row) => JSON.parse(row).variantId);
    expect(new Set(variantIds).size).toBe(variantIds.length);
    const other = await collect(trajectories, { seed: 8 });
    expect(other.rows).not.toEqual(first.rows);
  });

  it('gives the same rows for any shard count', async () => {
    const whole = (await collect(trajectories)).rows;
    for (const count of [2, 3]) {
      const shards = await Promise.all(
        Array.from({ length: count }, (_, index) => collect(trajectories, { shard: { index, count } })),
      );
      const union = shards.flatMap((shard) => shard.rows);
      expect(union.sort()).toEqual([...whole].sort());
    }
  });

  it('rejects bad inputs with their reason and keeps the rest; counts reconcile', async () => {
    const input = [
      { line: 1, value: trajectories[0] },
      { line: 2, issue: { code: 'syntax_error', path: [], message: 'invalid JSON at column 3', line: 2 } },
      { line: 3, value: { ...trajectories[1], messages: [] } },
      { line: 4, value: trajectories[2] },
      { line: 5, value: trajectories[2] },
    ];
    const { rows, rejects } = await collect(input);
    expect(rows).toHaveLength(2 * 3);
    expect(rejects.map(({ reason, line }) => ({ reason, line }))).toEqual([
      { reason: 'syntax_error', line: 2 },
      { reason: 'invalid_trajectory', line: 3 },
      { reason: 'duplicate_id', line: 5 },
    ]);
    expect(rows.length / 3 + rejects.length).toBe(input.length);
  });

  it('rejects a variant whose certificate fails, with the reason', async () => {
    // Keeps every text (the content check passes) but no longer accepts the example's argument.
    const narrow = defineOperator({
      id: 'tools/narrow',
      version: 1,
      dimension: 'tools',
      mode: 'exact',
      description: 'Drops an enum value the example uses (wrong on purpose).',
      params: z.object({}),
      apply(harness) {
        const variant = structuredClone(harness);
        const parameters = variant.tools.items[2]!.parameters as {
          properties: { fare_class: { enum: string[] } };
        };
        parameters.properties.fare_class.enum = ['basic', 'flex'];
        return { harness: variant, relabel: { steps: [] } };
      },
    });
    for (const pool of [{ size: 0 }, { size: 4 }]) {
      const { rows, rejects } = await collect([trajectories[0]], { plan: op(narrow), variants: 1, pool });
      expect(rows).toEqual([]);
      expect(rejects[0]).toMatchObject({ reason: 'uncertified', exampleId: 'a', variantIndex: 0 });
      expect(rejects[0]?.issues.length).toBeGreaterThan(0);
    }
  });

  it('skips an operator that changes protected content, with or without the pool, under one rule', async () => {
    const broken = defineOperator({
      id: 'tools/break',
      version: 1,
      dimension: 'tools',
      mode: 'exact',
      description: 'Renames a tool without a relabel (wrong on purpose).',
      params: z.object({}),
      apply(harness) {
        const variant = structuredClone(harness);
        variant.tools.items[2]!.name = 'renamed_without_relabel';
        return { harness: variant, relabel: { steps: [] } };
      },
    });
    const skippedOf = async (pool: { size: number }) => {
      const { rows, rejects } = await collect([trajectories[0]], { plan: op(broken), variants: 1, pool });
      expect(rejects).toEqual([]);
      const row = JSON.parse(rows[0] as string);
      expect(row.provenance.ops).toEqual([]);
      expect(row.harness.tools.items[2].name).toBe('get_baggage_policy');
      return row.provenance.skipped;
    };
    const expected = [{ name: 'tools/break', reason: 'changes protected content of the base' }];
    expect(await skippedOf({ size: 0 })).toEqual(expected);
    expect(await skippedOf({ size: 4 })).toEqual(expected);
  });
});

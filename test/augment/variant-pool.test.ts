// The variant pool: shared variants built once per run and drawn by each (example, variant index) from its
// own seed. Rows are the same bytes across runs, shard splits and processing orders, on both fixtures; every
// row's certificate holds when computed again from scratch; where no entry certifies, the example's own
// build decides.
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { type AugmentRow, augment, augmentExample, variantPoolFor } from '../../src/augment/augment.js';
import { certify } from '../../src/augment/certificate.js';
import { variantIdOf } from '../../src/augment/certified-row.js';
import type { Plan } from '../../src/augment/plan.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { createVariantPool } from '../../src/augment/variant-pool.js';
import { hashHarness } from '../../src/harness/hash.js';
import { parseHarness } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { rebookingTrajectory } from '../perturbations/tools/flight-case.js';
import { fixtureExamples } from '../support/fixture-examples.js';
import { travelHarnessInput } from '../support/travel-harness.js';

const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));

const fixture = fixtureExamples;

async function rowsOf(
  harness: Harness,
  originals: Trajectory[],
  extra: { shard?: { index: number; count: number }; size?: number; plan?: Plan } = {},
): Promise<AugmentRow[]> {
  const rows: AugmentRow[] = [];
  for await (const row of augment(harness, originals, {
    plan: extra.plan ?? plan,
    variants: 3,
    seed: 'pool',
    pool: { size: extra.size ?? 8 },
    ...(extra.shard ? { shard: extra.shard } : {}),
    onReject: (reject) => {
      throw new Error(`unexpected reject: ${JSON.stringify(reject).slice(0, 400)}`);
    },
  }))
    rows.push(row);
  return rows;
}

const lines = (rows: AugmentRow[]) => rows.map((row) => JSON.stringify(row));

describe.each(['livestream', 'helpdesk'])('the variant pool on %s', (name) => {
  it('gives the same bytes across runs and shard splits, and rows certify from scratch', async () => {
    const { harness, originals } = await fixture(name, 8);
    const whole = lines(await rowsOf(harness, originals));
    expect(whole.length).toBe(originals.length * 3);
    expect(lines(await rowsOf(harness, originals))).toEqual(whole);
    for (const count of [2, 3]) {
      const union: string[] = [];
      for (let index = 0; index < count; index++)
        union.push(...lines(await rowsOf(harness, originals, { shard: { index, count } })));
      expect(union.length).toBe(whole.length);
      expect([...union].sort()).toEqual([...whole].sort());
    }

    const byId = new Map(originals.map((original) => [original.id, original]));
    const entries = new Set<number>();
    for (const text of whole) {
      const row = JSON.parse(text) as AugmentRow;
      const original = byId.get(row.exampleId) as Trajectory;
      // The certificate, computed again from the row's bytes: nothing the pool shares takes part.
      const scratch = certify({
        base: harness,
        variant: row.harness,
        original,
        rewritten: row.trajectory,
        relabel: row.relabel,
      });
      expect(scratch.certified).toBe(true);
      expect(row.certificate.certified).toBe(true);
      expect(row.certificate.checks).toEqual(scratch.checks);
      expect(row.certificate.variantHash).toBe(scratch.variantHash);
      expect(validateTrajectory(row.trajectory, row.harness).issues).toEqual([]);
      if (row.provenance.pool) entries.add(row.provenance.pool.index);
    }
    // The pool of 8 is shared: more rows than entries, and at most 8 entries used.
    expect(entries.size).toBeGreaterThan(0);
    expect(entries.size).toBeLessThanOrEqual(8);
  }, 600_000);
});

describe('drawing from the pool', () => {
  it('does not depend on the order examples are processed in', async () => {
    const { harness, originals } = await fixture('livestream', 6);
    const options = { plan, seed: 'order', pool: { size: 4 } };
    const forward = variantPoolFor(harness, options);
    const backward = variantPoolFor(harness, options);
    if (!forward || !backward) throw new Error('a pool of size 4 exists');
    const first = new Map<string, string>();
    for (const original of originals)
      for (const index of [0, 1])
        first.set(`${original.id}/${index}`, JSON.stringify(await forward.augment(original, index)));
    for (const original of [...originals].reverse())
      for (const index of [1, 0])
        expect(JSON.stringify(await backward.augment(original, index))).toBe(
          first.get(`${original.id}/${index}`),
        );
    expect(backward.built()).toBeLessThanOrEqual(4);
  }, 300_000);

  it('shares one variant harness among the examples that draw the same entry', async () => {
    const { harness, originals } = await fixture('livestream', 12);
    const rows = await rowsOf(harness, originals, { size: 2 });
    const shared = rows.filter((row) => row.provenance.pool && row.provenance.pool.perExample === 0);
    const hashes = new Set(shared.map((row) => hashHarness(row.harness).harness));
    expect(shared.length).toBeGreaterThan(2);
    expect(hashes.size).toBeLessThanOrEqual(2);
    // The same entry gives the same variant id.
    const idsByEntry = new Map<number, Set<string>>();
    for (const row of shared) {
      const index = row.provenance.pool?.index as number;
      idsByEntry.set(index, (idsByEntry.get(index) ?? new Set()).add(row.variantId));
    }
    for (const ids of idsByEntry.values()) expect(ids.size).toBe(1);
  }, 300_000);

  it('gives each row the variant id of its own provenance, whether it took steps of its own or not', async () => {
    // The pool keeps each entry's id once: a row that took steps of its own must not get it.
    const { harness, originals } = await fixture('livestream', 12);
    // Half the variants take a hooks step only an example can take (`hooks/disable-untriggered` skips
    // without one).
    const policy = structuredClone(presets.hat) as { dimensions: Record<string, unknown> };
    policy.dimensions.hooks = { probability: 0.5, operators: ['hooks/disable-untriggered'] };
    const deferring = compilePolicy(parsePolicy(policy), createRegistry(builtinOperators));
    const rows = await rowsOf(harness, originals, { size: 16, plan: deferring });
    const baseHash = hashHarness(harness).harness;
    expect(rows.some((row) => row.provenance.pool?.perExample === 0)).toBe(true);
    const ownSteps = rows.filter((row) => (row.provenance.pool?.perExample ?? 0) > 0);
    expect(ownSteps.length).toBeGreaterThan(0);
    for (const row of rows) {
      const pool = row.provenance.pool as NonNullable<AugmentRow['provenance']['pool']>;
      const idSeed = pool.perExample > 0 ? `${pool.seed}|${row.provenance.variantSeed}` : pool.seed;
      expect(row.variantId).toBe(variantIdOf(baseHash, row.provenance.ops, idSeed));
    }
  }, 300_000);

  it('falls back to the example’s own build when no entry certifies, and that result stands', async () => {
    const { harness, originals } = await fixture('livestream', 20);
    const original = originals.find((trajectory) =>
      trajectory.messages.some((message) => 'tool_calls' in message && message.tool_calls?.length),
    ) as Trajectory;
    // An original that calls a tool the base does not have: no entry can certify it.
    const broken = structuredClone({ ...original, id: 'broken' }) as Trajectory;
    const call = broken.messages.flatMap((message) =>
      'tool_calls' in message ? (message.tool_calls ?? []) : [],
    )[0];
    if (!call) throw new Error('the fixture has a tool call');
    call.function.name = 'no_such_tool';
    expect(validateTrajectory(broken, harness).valid).toBe(false);
    const calls: string[] = [];
    const pool = createVariantPool(
      harness,
      { plan, seed: 'fallback', size: 4, attempts: 2 },
      async (t, i) => {
        calls.push(`${t.id}/${i}`);
        return augmentExample(harness, t, i, { plan, seed: 'fallback' });
      },
    );
    const result = await pool.augment(broken, 0);
    expect(calls).toEqual(['broken/0']);
    expect(result).toEqual(await augmentExample(harness, broken, 0, { plan, seed: 'fallback' }));
    // A valid example certifies under its drawn entry without the fallback.
    const good = await pool.augment(original, 0);
    expect('row' in good && good.row.provenance.pool?.attempt).toBe(0);
    expect(calls).toEqual(['broken/0']);
  }, 300_000);
});

describe("the variant pool and an example's replies", () => {
  it('takes no entry that renames a name the replies write where a rename cannot follow', async () => {
    // Entries are built without an example: their guards read the harness only. A reply that names a
    // parameter as one ("with quantity set to 2") must not meet an entry that renamed it.
    const { harness, originals } = await fixture('livestream', 1);
    const renameParameters = compilePolicy(
      parsePolicy({
        name: 'parameters',
        severity: 1,
        dimensions: { tools: { probability: 1, operators: ['tools/rename-parameters'] } },
      }),
      createRegistry(builtinOperators),
    );
    const original = originals[0] as Trajectory;
    const replying = structuredClone(original);
    const last = replying.messages.at(-1);
    if (last?.role !== 'assistant' || last.content === null) throw new Error('the fixture ends on a reply');
    last.content = `${last.content} I checked it with quantity set to 1.`;
    const renamed = (row: AugmentRow) =>
      row.relabel.steps.flatMap((step) =>
        step.type === 'rename_arguments' ? step.renames.map((rename) => rename.from) : [],
      );
    const pool = createVariantPool(harness, { plan: renameParameters, seed: 'replies', size: 8 }, (t, i) =>
      augmentExample(harness, t, i, { plan: renameParameters, seed: 'replies' }),
    );
    const plain: string[][] = [];
    const named: string[][] = [];
    for (let index = 0; index < 8; index++) {
      const a = await pool.augment(original, index);
      const b = await pool.augment(replying, index);
      if (!('row' in a) || !('row' in b)) throw new Error('every example certifies');
      plain.push(renamed(a.row));
      named.push(renamed(b.row));
    }
    // Without the reply some entries rename `quantity`; with it, no row does.
    expect(plain.flat()).toContain('quantity');
    expect(named.flat()).not.toContain('quantity');
  }, 120_000);

  it('takes no entry that moves a tool into or out of a family a name pattern of the replies addresses', async () => {
    // "I looked it up with the get_* tools": every get_ tool is named there, and an entry that renamed one
    // (or named another tool get_…) would change which tools the reply speaks of.
    const { harness, originals } = await fixture('livestream', 1);
    const renameTools = compilePolicy(
      parsePolicy({
        name: 'tools',
        severity: 1,
        dimensions: { tools: { probability: 1, operators: ['tools/rename'] } },
      }),
      createRegistry(builtinOperators),
    );
    const original = originals[0] as Trajectory;
    const replying = structuredClone(original);
    const last = replying.messages.at(-1);
    if (last?.role !== 'assistant' || last.content === null) throw new Error('the fixture ends on a reply');
    last.content = `${last.content} I looked it up with the get_* tools.`;
    const renamed = (row: AugmentRow) =>
      row.relabel.steps.flatMap((step) => (step.type === 'rename_tools' ? Object.entries(step.map) : []));
    const pool = createVariantPool(harness, { plan: renameTools, seed: 'families', size: 8 }, (t, i) =>
      augmentExample(harness, t, i, { plan: renameTools, seed: 'families' }),
    );
    const plain: Array<[string, string]> = [];
    const named: Array<[string, string]> = [];
    for (let index = 0; index < 8; index++) {
      const a = await pool.augment(original, index);
      const b = await pool.augment(replying, index);
      if (!('row' in a) || !('row' in b)) throw new Error('every example certifies');
      plain.push(...renamed(a.row));
      named.push(...renamed(b.row));
    }
    // Without the reply some rows rename a get_ tool; with it, none renames one or names a tool get_….
    expect(plain.some(([from]) => from.startsWith('get_'))).toBe(true);
    expect(named.length).toBeGreaterThan(0);
    for (const [from, to] of named) {
      expect(from).not.toMatch(/^get_/u);
      expect(to).not.toMatch(/^get_/u);
    }
  }, 120_000);

  // A pool entry is built without an example, so `tools/add-distractors` cannot read the conversation there:
  // its `fitsExample` refuses, per example, an entry whose pool tool does what the user asks about.
  it('skips, for an example, an entry whose distractor does what its user asks about (fitsExample)', async () => {
    const { harness, originals } = await fixture('livestream', 1);
    const distractors = compilePolicy(
      parsePolicy({
        severity: 1,
        dimensions: { tools: { probability: 1, operators: ['tools/add-distractors'] } },
      }),
      createRegistry(builtinOperators),
    );
    const original = originals[0] as Trajectory;
    const asking = structuredClone(original);
    const user = asking.messages.find((message) => message.role === 'user');
    if (user?.role !== 'user' || typeof user.content !== 'string')
      throw new Error('the fixture opens with a user');
    user.content = `${user.content} And what will the weather be like on Sunday?`;
    const added = (row: AugmentRow) =>
      row.harness.tools.items
        .map((tool) => tool.name)
        .filter((name) => !harness.tools.items.some((own) => own.name === name));
    const pool = createVariantPool(harness, { plan: distractors, seed: 'weather', size: 8 }, (t, i) =>
      augmentExample(harness, t, i, { plan: distractors, seed: 'weather' }),
    );
    const plain: string[] = [];
    const asked: string[] = [];
    for (let index = 0; index < 16; index++) {
      const a = await pool.augment(original, index);
      const b = await pool.augment(asking, index);
      if (!('row' in a) || !('row' in b)) throw new Error('every example certifies');
      plain.push(...added(a.row));
      asked.push(...added(b.row));
    }
    expect(plain).toContain('get_weather');
    expect(asked).not.toContain('get_weather');
    expect(asked.length).toBeGreaterThan(0);
  }, 120_000);
});

describe('the variant pool and entries that change nothing', () => {
  // A policy whose hooks step cannot apply to a harness without hooks, beside a tools step drawn half the time:
  // about half the entries are the base itself. BFCL's vehicle suite (tools only) gave 7 of 64 rows that were
  // unchanged copies of the base.
  it('draws another entry rather than write an unchanged copy', async () => {
    const input = travelHarnessInput();
    input.hooks.items = [];
    const harness = parseHarness(input);
    const halfTools = compilePolicy(
      parsePolicy({
        name: 'half-tools',
        dimensions: {
          hooks: { probability: 1, operators: ['hooks/reword-feedback'] },
          tools: { probability: 0.5, operators: ['tools/rename'] },
        },
      }),
      createRegistry(builtinOperators),
    );
    const original = validateTrajectory(rebookingTrajectory(), harness).trajectory as Trajectory;
    const pool = createVariantPool(harness, { plan: halfTools, seed: 'half', size: 16 }, (t, i) =>
      augmentExample(harness, t, i, { plan: halfTools, seed: 'half' }),
    );
    const unchangedEntries: number[] = [];
    for (let index = 0; index < 16; index++)
      if ((await pool.entryData(index)).ops.length === 0) unchangedEntries.push(index);
    expect(unchangedEntries.length).toBeGreaterThan(2);
    for (let index = 0; index < 24; index++) {
      const result = await pool.augment(original, index);
      if (!('row' in result)) throw new Error('every example certifies');
      expect(result.row.provenance.ops.map((op) => op.name)).toContain('tools/rename');
    }
  }, 60_000);
});

// Steps that decide from the example, in a variant pool. An entry is built without an example: an operator
// that reads the example to decide what to change (`needsExample`) skips there, and its step is left to
// each example instead of taking an example-free fallback that would stand in for it in every row drawn
// from the entry (decision 0003).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinOperators } from '../../perturbations/index.js';
import { type AugmentRow, augment, variantPoolFor } from '../../src/augment/augment.js';
import {
  applyOperator,
  defineOperator,
  type Operator,
  type OperatorSpec,
} from '../../src/augment/operator.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { hashHarness } from '../../src/harness/hash.js';
import type { Harness } from '../../src/harness/schema.js';
import { checkOperatorLaws } from '../../src/kit/laws.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { fixtureExamples } from '../support/fixture-examples.js';
import { lawCases } from '../support/law-cases.js';

const fixture = fixtureExamples;

/** The harness with one more prompt section. */
const withSection = (base: Harness, id: string, template: string) => ({
  harness: {
    ...base,
    prompt: {
      ...base.prompt,
      sections: [...base.prompt.sections, { id, title: id, template, pinned: false }],
    },
  },
  relabel: identityRelabel,
});

/** A prompt operator of these tests: version 1, exact, no params. */
const promptOperator = (
  spec: Pick<OperatorSpec<z.ZodObject>, 'id' | 'description' | 'apply' | 'needsExample' | 'fitsExample'>,
) => defineOperator({ version: 1, dimension: 'prompt', mode: 'exact', params: z.object({}), ...spec });

// Decides from the example and never applies: every example falls to the step's next choice.
const neverFits = promptOperator({
  id: 'prompt/never-fits',
  needsExample: true,
  description: 'Reads the example and skips.',
  apply: (_base, { trajectory }) => ({ skip: trajectory ? 'does not fit the example' : 'needs the example' }),
});

async function rowsOf(
  harness: Harness,
  originals: Trajectory[],
  operators: readonly Operator[],
  policy: Parameters<typeof parsePolicy>[0],
  size: number,
): Promise<AugmentRow[]> {
  const plan = compilePolicy(parsePolicy(policy), createRegistry(operators));
  const rows: AugmentRow[] = [];
  for await (const row of augment(harness, originals, {
    plan,
    variants: 4,
    seed: 'example-steps',
    pool: { size },
  }))
    rows.push(row);
  return rows;
}

const operatorsOf = (rows: AugmentRow[], dimension: string) =>
  rows.flatMap((row) => row.provenance.ops.filter((op) => op.dimension === dimension).map((op) => op.name));

describe('a pool entry and the operators that decide from the example', () => {
  it("leaves hat's hooks step to each example, so every hooks operator applies (not only the example-free one)", async () => {
    const { harness, originals } = await fixture('livestream', 12);
    const rows = await rowsOf(harness, originals, builtinOperators, presets.hat, 8);
    const names = new Set(operatorsOf(rows, 'hooks'));
    // Before, every hooks step of a pooled row was hooks/reword-feedback.
    expect([...names].sort()).toEqual([
      'hooks/disable-untriggered',
      'hooks/inject-recovery',
      'hooks/reorder',
      'hooks/reword-feedback',
    ]);
    expect(rows.some((row) => (row.provenance.pool?.perExample ?? 0) > 0)).toBe(true);
  }, 300_000);

  it('defers a step whose operator needs the example instead of applying its fallback at the entry', async () => {
    const { harness, originals } = await fixture('livestream', 6);
    // Reads how many messages the example has; without one it skips.
    const fromExample = (needsExample: boolean) =>
      promptOperator({
        id: 'prompt/note-length',
        ...(needsExample ? { needsExample } : {}),
        description: 'Adds a section that says how long the example is.',
        apply(base, { trajectory }) {
          if (!trajectory) return { skip: 'needs the example' };
          return withSection(base, 'length-note', `${trajectory.messages.length} turns.`);
        },
      });
    const fallback = builtinOperators.find(
      (operator) => operator.id === 'prompt/whitespace-noise',
    ) as Operator;
    const policy = {
      name: 'length-or-noise',
      dimensions: {
        prompt: {
          probability: 1,
          operators: [{ op: 'prompt/note-length', weight: 1000 }, 'prompt/whitespace-noise'],
        },
      },
    };
    const undeclared = await rowsOf(harness, originals, [fromExample(false), fallback], policy, 2);
    const declared = await rowsOf(harness, originals, [fromExample(true), fallback], policy, 2);
    // Undeclared: the entry applies the fallback and no row ever reads its example.
    expect(new Set(operatorsOf(undeclared, 'prompt'))).toEqual(new Set(['prompt/whitespace-noise']));
    // Declared: the step is each example's, and the operator applies with it.
    expect(operatorsOf(declared, 'prompt').filter((name) => name === 'prompt/note-length').length).toBe(
      declared.length,
    );
  }, 120_000);

  it("draws a deferred step from the entry's generator: examples that give it the same facts share the variant", async () => {
    const { harness, originals } = await fixture('livestream', 6);
    // Reads the example only to know there is one: what it adds comes from the generator alone.
    const drawnNote = promptOperator({
      id: 'prompt/drawn-note',
      needsExample: true,
      description: 'Adds a section with a drawn number.',
      apply(base, context) {
        if (!context.trajectory) return { skip: 'needs the example' };
        return withSection(base, 'drawn', `Note ${context.rng.int(0, 1e9)}.`);
      },
    });
    const policy = {
      name: 'drawn',
      dimensions: { prompt: { probability: 1, operators: ['prompt/drawn-note'] } },
    };
    const rows = await rowsOf(harness, originals, [drawnNote], policy, 1);
    expect(rows.length).toBe(originals.length * 4);
    expect(rows.every((row) => row.provenance.pool?.perExample === 1)).toBe(true);
    expect(new Set(rows.map((row) => hashHarness(row.harness).harness)).size).toBe(1);
  }, 120_000);

  it('asks a deferred candidate that does not read the example once per entry, not once per example', async () => {
    const { harness, originals } = await fixture('livestream', 6);
    let calls = 0;
    const counted = promptOperator({
      id: 'prompt/counted-note',
      description: 'Adds a section; counts its calls.',
      apply(base) {
        calls++;
        return withSection(base, 'counted', 'A note.');
      },
    });
    const policy = {
      name: 'fits-or-note',
      dimensions: {
        prompt: {
          probability: 1,
          operators: [{ op: 'prompt/never-fits', weight: 1000 }, 'prompt/counted-note'],
        },
      },
    };
    const rows = await rowsOf(harness, originals, [neverFits, counted], policy, 1);
    expect(rows.length).toBe(originals.length * 4);
    expect(
      rows.every((row) => row.provenance.ops.map((op) => op.name).join() === 'prompt/counted-note'),
    ).toBe(true);
    expect(calls).toBe(1);
  }, 120_000);

  it('asks a deferred choice that skips with an example it does not read once with one, not once per example', async () => {
    const { harness, originals } = await fixture('livestream', 6);
    let calls = 0;
    const alwaysSkips = promptOperator({
      id: 'prompt/always-skips',
      description: 'Skips whatever it is given; counts its calls.',
      apply() {
        calls++;
        return { skip: 'nothing to change' };
      },
    });
    const policy = {
      name: 'fits-or-skips',
      dimensions: {
        prompt: {
          probability: 1,
          operators: [{ op: 'prompt/never-fits', weight: 1000 }, 'prompt/always-skips'],
        },
      },
    };
    // No row changes anything: every example ends in its own build, where the operator is asked again.
    const pool = variantPoolFor(harness, {
      plan: compilePolicy(parsePolicy(policy), createRegistry([neverFits, alwaysSkips])),
      seed: 'example-steps',
      pool: { size: 1, attempts: 1 },
    });
    if (!pool) throw new Error('a pool of size 1 exists');
    for (const original of originals) await pool.augment(original, 0);
    const fromOwnBuilds = originals.length;
    // Without the example and with one, once each for the entry.
    expect(calls - fromOwnBuilds).toBe(2);
  }, 120_000);

  it('asks the choices that do not decide from the example as at the entry, and checks their rows against it as entries are', async () => {
    const { harness, originals } = await fixture('livestream', 6);
    const given: boolean[] = [];
    // Would read the example if given one; its example guard refuses every example.
    const guarded = (refuse: boolean) =>
      promptOperator({
        id: 'prompt/guarded-note',
        description: 'Adds a section; records whether it was given the example.',
        apply(base, { trajectory }) {
          given.push(trajectory !== undefined);
          return withSection(base, 'guarded', 'A note.');
        },
        ...(refuse ? { fitsExample: () => 'refused for every example' } : {}),
      });
    const policy = {
      name: 'fits-or-guarded',
      dimensions: {
        prompt: {
          probability: 1,
          operators: [{ op: 'prompt/never-fits', weight: 1000 }, 'prompt/guarded-note'],
        },
      },
    };
    const pooled = await rowsOf(harness, originals, [neverFits, guarded(false)], policy, 1);
    expect(pooled.every((row) => row.provenance.pool?.perExample === 1)).toBe(true);
    expect(given).toEqual([false]);
    given.length = 0;
    // The guard refuses what the step made for each example: every row is the example's own build.
    const refused = await rowsOf(harness, originals, [neverFits, guarded(true)], policy, 1);
    expect(refused.length).toBe(originals.length * 4);
    expect(refused.every((row) => row.provenance.pool === undefined)).toBe(true);
  }, 120_000);

  it('is a law of the kit: an operator that applies with the example and skips without it must declare it', async () => {
    const notes = (needsExample: boolean) =>
      promptOperator({
        id: 'prompt/example-note',
        ...(needsExample ? { needsExample } : {}),
        description: 'Adds a section; only with an example.',
        apply: (base, { trajectory }) =>
          trajectory ? withSection(base, 'example-note', 'A note.') : { skip: 'needs the example' },
      });
    const options = { cases: await lawCases(), randomCases: false, runs: 8 };
    const broken = await checkOperatorLaws(notes(false), options).then(
      () => undefined,
      (error: Error) => `${error.message}\n${(error.cause as Error | undefined)?.message ?? ''}`,
    );
    expect(broken).toMatch(
      /law "declares needsExample" broken: it applies with the example and skips without it/,
    );
    expect((await checkOperatorLaws(notes(true), options)).applied).toBeGreaterThan(0);
  }, 120_000);

  it('is declared by every built-in that skips without an example and applies with one', async () => {
    const { harness, originals } = await fixture('livestream', 12);
    const helpdesk = await fixture('helpdesk', 12);
    const undeclared: string[] = [];
    for (const operator of builtinOperators) {
      if (operator.mode !== 'exact') continue;
      const options = { rng: 'needs-example', severity: 0.8 };
      for (const { harness: base, originals: examples } of [{ harness, originals }, helpdesk]) {
        const without = await applyOperator(operator, base, options);
        if (!('skip' in without)) continue;
        const withOne = await Promise.all(
          examples.map((trajectory) => applyOperator(operator, base, { ...options, trajectory })),
        );
        if (withOne.some((result) => !('skip' in result)) && !operator.needsExample)
          undeclared.push(operator.id);
      }
    }
    expect(undeclared).toEqual([]);
  }, 300_000);
});

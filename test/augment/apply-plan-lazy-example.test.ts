// The example a plan step hands its operator is moved into the step's harness only when a candidate reads
// `context.trajectory`: an operator that never looks at the example (a rewording of skill bodies) costs no
// move of it. Counted in walks of the trajectory (`trajectoryWalks`), never in time.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { augmentExample } from '../../src/augment/augment.js';
import { applyOperator, defineOperator } from '../../src/augment/operator.js';
import { op, pipe } from '../../src/augment/plan.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { trajectoryWalks } from '../../src/trajectory/validate-trajectory.js';
import { renameBaggageTool } from '../support/rename-baggage-tool.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

/** A step that never reads the example. */
const appendToBodies = defineOperator({
  id: 'skill-content/append-note',
  version: 1,
  dimension: 'skill-content',
  mode: 'exact',
  description: 'Appends a neutral sentence to every skill body.',
  params: z.object({}),
  apply: (harness) => ({
    harness: {
      ...harness,
      skills: {
        ...harness.skills,
        items: harness.skills.items.map((skill) => ({ ...skill, body: `${skill.body}\n\nBe brief.` })),
      },
    },
    relabel: identityRelabel,
  }),
});

/** The same step, reading the example (and counting how often it asks). */
let reads = 0;
const appendWhenExample = defineOperator({
  id: 'skill-content/append-note-read',
  version: 1,
  dimension: 'skill-content',
  mode: 'exact',
  description: 'Appends a neutral sentence to every skill body when there is an example.',
  params: z.object({}),
  apply(harness, context) {
    reads++;
    if (!context.trajectory) return { skip: 'needs the example' };
    return appendToBodies.apply(harness, { ...context, params: {} });
  },
});

function rederivesOf<T>(run: () => Promise<T>): Promise<{ result: T; rederive: number }> {
  const before = trajectoryWalks().rederive;
  return run().then((result) => ({ result, rederive: trajectoryWalks().rederive - before }));
}

describe('the example of a plan step', () => {
  it('is not moved for a step whose operator never reads it', async () => {
    const harness = travelHarness();
    const original = baggageTrajectory(harness);
    const { result, rederive } = await rederivesOf(() =>
      augmentExample(harness, original, 0, {
        plan: pipe(op(renameBaggageTool), op(appendToBodies)),
        seed: 'lazy',
      }),
    );
    if (!('row' in result)) throw new Error(`expected a row: ${JSON.stringify(result)}`);
    expect(result.row.provenance.ops.map((record) => record.name)).toEqual([
      'tools/rename-baggage',
      'skill-content/append-note',
    ]);
    // The row moves the original into the variant (1) and back (1). Before: the second step's example was
    // moved into the renamed harness too, for an operator that never read it (rederive 3).
    expect(rederive).toBe(2);
  });

  it('is moved once, when read, and the row is the same as when every step reads it', async () => {
    const harness = travelHarness();
    const lazy = await augmentExample(harness, baggageTrajectory(harness), 0, {
      plan: pipe(op(renameBaggageTool), op(appendToBodies)),
      seed: 'lazy',
    });
    reads = 0;
    const { result, rederive } = await rederivesOf(() =>
      augmentExample(harness, baggageTrajectory(harness), 0, {
        plan: pipe(op(renameBaggageTool), op(appendWhenExample)),
        seed: 'lazy',
      }),
    );
    if (!('row' in result) || !('row' in lazy)) throw new Error('expected rows');
    expect(reads).toBe(1);
    // The step's example, moved into the renamed harness when read (1); the row moves the original into
    // the appended harness (1) and back (1).
    expect(rederive).toBe(3);
    expect(JSON.stringify(result.row.trajectory)).toBe(JSON.stringify(lazy.row.trajectory));
    expect(JSON.stringify(result.row.harness)).toBe(JSON.stringify(lazy.row.harness));
  });

  it('is derived at most once per operator call, on the first read', async () => {
    const harness = travelHarness();
    const original = baggageTrajectory(harness);
    let derived = 0;
    const seen: Array<Trajectory | undefined> = [];
    const readsTwice = defineOperator({
      id: 'prompt/reads-twice',
      version: 1,
      dimension: 'prompt',
      mode: 'exact',
      description: 'Reads the example twice.',
      params: z.object({}),
      apply(input, context) {
        seen.push(context.trajectory, context.trajectory, { ...context }.trajectory);
        return { harness: input, relabel: identityRelabel };
      },
    });
    const applied = await applyOperator(readsTwice, harness, {
      rng: 'x',
      trajectory: () => {
        derived++;
        return original;
      },
    });
    expect('skip' in applied).toBe(false);
    expect(derived).toBe(1);
    expect(seen).toEqual([original, original, original]);
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { taskFromTrajectory } from '../../src/runtime/episode-task.js';
import { scoreEpisode, scoreVariantEpisode } from '../../src/runtime/rewards/index.js';
import { identityRelabel } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';
import { projectRoot } from '../support/run-cli.js';

const base = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
const [first] = (await readFile(join(projectRoot, 'fixtures/livestream/trajectories.jsonl'), 'utf8'))
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Trajectory);

describe('scoreVariantEpisode', () => {
  it('applies the base harness’s reply rules even when the variant disabled the hook', () => {
    const variant: Harness = {
      ...base,
      hooks: {
        ...base.hooks,
        items: base.hooks.items.map((hook) =>
          hook.id === 'no_absolute_claims' ? { ...hook, enabled: false } : hook,
        ),
      },
    };
    const messages = structuredClone(first!.messages);
    const last = messages.at(-1)!;
    if (last.role !== 'assistant' || last.content === null) throw new Error('expected a final reply');
    last.content = `${last.content} Best deal!`;
    const trajectory = { ...first!, messages };
    const task = taskFromTrajectory(first!, base);
    // Read under the variant alone, the banned claim would pass.
    expect(scoreEpisode(trajectory, variant, task).accuracy).toBe(1);
    const score = scoreVariantEpisode(trajectory, base, { harness: variant, relabel: identityRelabel }, task);
    expect(score.accuracy).toBe(0);
    expect(score.details.accuracy.findings[0]).toMatchObject({ code: 'banned_term' });
    expect(score.total).toBeCloseTo(
      (0 + score.effectiveness + score.toolRationality + score.skillSelection) / 4,
      12,
    );
  });

  it('is plain scoreEpisode without a variant', () => {
    const task = taskFromTrajectory(first!, base);
    expect(scoreVariantEpisode(first!, base, undefined, task)).toEqual(scoreEpisode(first!, base, task));
  });
});

// Every gold trajectory of the live-stream fixture, scored against a task derived from its own messages,
// must be accurate, load exactly its skills and call exactly its tools.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadHarnessFile } from '../../../src/harness/parse-harness.js';
import type { Harness } from '../../../src/harness/schema.js';
import { scoreEpisode } from '../../../src/runtime/rewards/score-episode.js';
import { type Trajectory, TrajectorySchema } from '../../../src/trajectory/schema.js';
import { goldTask } from '../../runtime/rewards/gold-task.js';
import { projectRoot } from '../../support/run-cli.js';

const fixture = join(projectRoot, 'fixtures/livestream');
const trajectories: Trajectory[] = readFileSync(join(fixture, 'trajectories.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => TrajectorySchema.parse(JSON.parse(line)));

let harness: Harness;
beforeAll(async () => {
  harness = await loadHarnessFile(join(fixture, 'harness.yaml'));
});

describe('rewards over the live-stream fixture', () => {
  it('reads the whole fixture', () => {
    expect(trajectories.length).toBeGreaterThan(300);
  });

  it('scores every gold trajectory accurate, with its own skills and tools', () => {
    const failures: string[] = [];
    let fallbackReplies = 0;
    let blockedTurns = 0;
    for (const trajectory of trajectories) {
      const task = goldTask(trajectory, harness);
      const score = scoreEpisode(trajectory, harness, task);
      fallbackReplies += score.details.accuracy.replies.filter(
        (reply) => reply.event === 'hook_fallback',
      ).length;
      blockedTurns += task.turns.filter((turn) => turn.blockedBy).length;
      if (score.accuracy !== 1)
        failures.push(`${trajectory.id} accuracy ${JSON.stringify(score.details.accuracy.findings)}`);
      if (score.skillSelection !== 1)
        failures.push(`${trajectory.id} skills ${JSON.stringify(score.details.skillSelection.findings)}`);
      if (score.details.toolRationality.rightTools !== 1)
        failures.push(`${trajectory.id} tools ${JSON.stringify(score.details.toolRationality.findings)}`);
      if (score.details.alignment.length > 0)
        failures.push(`${trajectory.id} alignment ${JSON.stringify(score.details.alignment)}`);
      // A turn ends without a normal reply only where a reply or tool hook fell back: then it is not full.
      const hookEnded = score.details.effectiveness.turns.some(
        (turn) => turn.ending === 'hook_fallback' && !turn.blockedBy,
      );
      if (!hookEnded && score.effectiveness !== 1)
        failures.push(
          `${trajectory.id} effectiveness ${JSON.stringify(score.details.effectiveness.findings)}`,
        );
    }
    expect(failures).toEqual([]);
    // The fixture holds fallback replies and blocked spam, so both paths were exercised.
    expect(fallbackReplies).toBeGreaterThan(0);
    expect(blockedTurns).toBeGreaterThan(0);
  });
});

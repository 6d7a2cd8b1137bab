// A bundled fixture's harness and its first trajectories, as the augmentation tests read them.
import { readFile } from 'node:fs/promises';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import type { Trajectory } from '../../src/trajectory/schema.js';

/** `fixtures/<name>/harness.yaml` and the first `count` lines of its `trajectories.jsonl`. */
export async function fixtureExamples(
  name: string,
  count: number,
): Promise<{ harness: Harness; originals: Trajectory[] }> {
  const harness = await loadHarnessFile(`fixtures/${name}/harness.yaml`);
  const originals = (await readFile(`fixtures/${name}/trajectories.jsonl`, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .slice(0, count)
    .map((line) => JSON.parse(line) as Trajectory);
  return { harness, originals };
}

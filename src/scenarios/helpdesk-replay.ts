// The helpdesk scenario: the replay scenario over the bundled IT-helpdesk logs (fixtures/helpdesk: the
// harness and 84 gold trajectories), its tools answered by the helpdesk's functions with a fresh directory
// per episode. It composes two bundled parts, so it sits beside the scenarios rather than inside one.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HarnessAugmentError } from '../harness/issues.js';
import { loadHarnessFile } from '../harness/parse-harness.js';
import type { Harness } from '../harness/schema.js';
import { moduleBackend } from '../runtime/backends/module.js';
import type { Trajectory } from '../trajectory/schema.js';
import { createTools } from './helpdesk/tools.js';
import { readReplayTrajectories } from './replay/backends-file.js';
import type { ReplayPlayer } from './replay/replay-oracle.js';
import { createReplayScenario, type ReplayScenario } from './replay/replay-scenario.js';

/** Where fixtures/helpdesk lies, from this module in the source tree or in a build (entry or chunk). */
const fixtureLocations = [
  new URL('../../fixtures/helpdesk/', import.meta.url),
  new URL('../fixtures/helpdesk/', import.meta.url),
];

function bundledFile(name: string): string {
  for (const folder of fixtureLocations) {
    const path = fileURLToPath(new URL(name, folder));
    if (existsSync(path)) return path;
  }
  throw new HarnessAugmentError(
    `the bundled helpdesk fixture (fixtures/helpdesk/${name}) is not in this installation`,
    { kind: 'usage' },
  );
}

/** Options of `loadHelpdeskScenario`: a harness, logs or player to use instead of the bundled ones. */
export interface HelpdeskScenarioOptions {
  /** The base harness (default: the bundled fixtures/helpdesk/harness.yaml). */
  harness?: Harness;
  /** The logged conversations, valid under the harness (default: the bundled trajectories.jsonl). */
  trajectories?: readonly Trajectory[];
  /** The scripted policy the oracle plays (default `gold`). */
  player?: ReplayPlayer;
}

/**
 * The helpdesk scenario and its harness: replays the helpdesk logs on the helpdesk tools.
 *
 * @example
 * const { scenario, harness } = await loadHelpdeskScenario();
 * for await (const episode of simulate({ scenario, harness, episodes: 5 })) console.log(episode.rewards.total);
 */
export async function loadHelpdeskScenario(
  options: HelpdeskScenarioOptions = {},
): Promise<{ harness: Harness; scenario: ReplayScenario }> {
  const harness = options.harness ?? (await loadHarnessFile(bundledFile('harness.yaml')));
  const trajectories =
    options.trajectories ?? (await readReplayTrajectories(bundledFile('trajectories.jsonl'), harness));
  const scenario = createReplayScenario({
    name: 'helpdesk',
    trajectories,
    ...(options.player ? { player: options.player } : {}),
    backends: { default: moduleBackend({ createTools: () => createTools() }) },
  });
  return { harness, scenario };
}

// `--scenario helpdesk`: the replay of the bundled IT-helpdesk logs on the helpdesk tools, under the given
// harness (fixtures/helpdesk/harness.yaml, or a harness of your own that keeps its tools); `--trajectories`
// replaces the bundled logs.
import { resolve } from 'node:path';
import { loadHelpdeskScenario, readReplayTrajectories } from '../../scenarios/index.js';
import { parsePlayer } from '../../scenarios/replay/index.js';
import type { ScenarioLoader } from '../scenario-loader.js';

/**
 * @example
 * const scenario = await loadHelpdeskCliScenario({ harness, harnessPath: 'fixtures/helpdesk/harness.yaml' });
 */
export const loadHelpdeskCliScenario: ScenarioLoader = async (input) => {
  const trajectories = input.trajectories
    ? await readReplayTrajectories(
        resolve(input.cwd ?? process.cwd(), input.trajectories),
        input.harness,
        input.hookChecks,
      )
    : undefined;
  const { scenario } = await loadHelpdeskScenario({
    harness: input.harness,
    player: parsePlayer(input.player),
    ...(trajectories ? { trajectories } : {}),
  });
  return scenario;
};

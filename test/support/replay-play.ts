// Plays a scenario's episodes with its oracle, in process, through the runtime's own episode player
// (`playScenarioEpisode`: backend, `variantTools`, oracle) and scorer, with a variant chosen per episode by
// the test. Tests use it where `simulate`'s own variant sampling is not what they want to control.
import type { Harness } from '../../src/harness/schema.js';
import type { Scenario, ScenarioScore, ScenarioVariant } from '../../src/runtime/scenario.js';
import { scoreScenarioEpisode } from '../../src/runtime/score-scenario.js';
import { playScenarioEpisode } from '../../src/runtime/sim/play.js';
import type { Trajectory } from '../../src/trajectory/schema.js';

export interface PlayedEpisode {
  id: string;
  trajectory: Trajectory;
  score: ScenarioScore;
  deviations: string[];
}

/** Plays `episodes` episodes (default: the scenario's) under the base or a variant per episode. */
export async function playScenario(
  scenario: Scenario,
  base: Harness,
  options: {
    seed?: string;
    episodes?: number;
    variant?: (episodeId: string, gold: Trajectory | undefined) => Promise<ScenarioVariant | undefined>;
  } = {},
): Promise<PlayedEpisode[]> {
  const context = { base, seed: options.seed ?? '1' };
  const plan = await scenario.plan({
    ...context,
    ...(options.episodes ? { episodes: options.episodes } : {}),
  });
  const played: PlayedEpisode[] = [];
  for (const planned of plan) {
    const episode = await scenario.episode(planned, context);
    const variant = options.variant ? await options.variant(episode.id, episode.gold) : undefined;
    const result = await playScenarioEpisode({
      ...context,
      scenario,
      episode,
      ...(variant ? { variant } : {}),
    });
    const score = scoreScenarioEpisode({
      ...context,
      scenario,
      episode,
      trajectory: result.trajectory,
      ...(variant ? { variant } : {}),
    });
    played.push({ id: episode.id, trajectory: result.trajectory, score, deviations: result.deviations });
  }
  return played;
}

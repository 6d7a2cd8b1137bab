// The oracle teacher: the scenario's scripted policy plays the task's episode again under the variant
// harness (its tools mapped through the variant's relabel, the variant's own hooks). It needs simulated
// inputs (`inputs.simulate`) from a scenario that has an oracle.
import type { Teacher } from '../../pipeline/teacher.js';
import { type PlayOptions, playScenarioEpisode } from '../../runtime/sim/play.js';

/**
 * A teacher whose scripted policy, the scenario's oracle, plays a simulated task again under the variant
 * harness; it skips tasks that are not simulated or whose scenario has no oracle.
 *
 * @example
 * const teacher = oracleTeacher();
 * const inRun = oracleTeacher({ run: createRunContext({ hookChecks }) });
 */
export function oracleTeacher(
  options: Pick<PlayOptions, 'hookChecks' | 'run' | 'maxStepsPerTurn'> = {},
): Teacher {
  return {
    name: 'oracle',
    exact: false,
    async generate(request) {
      const simulated = request.task.episode;
      if (!simulated)
        return { skip: 'the oracle teacher plays simulated episodes only (use inputs.simulate)' };
      if (!simulated.scenario.oracle)
        return { skip: `scenario "${simulated.scenario.name}" has no oracle to play the episode` };
      const played = await playScenarioEpisode({
        scenario: simulated.scenario,
        episode: simulated.episode,
        base: request.base,
        seed: simulated.seed,
        ...(request.variant
          ? {
              variant: {
                id: request.variant.id,
                harness: request.variant.harness,
                relabel: request.variant.relabel,
              },
            }
          : {}),
        ...options,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      return { trajectory: { ...played.trajectory, id: request.task.id } };
    },
  };
}

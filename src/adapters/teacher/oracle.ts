// The oracle teacher: the simulator's scripted policy plays the task's episode again under the variant
// harness (reading the variant's vocabulary through its relabel and the variant's own hooks). It needs
// simulated inputs, whose plan entry it replays.
import type { Teacher } from '../../pipeline/teacher.js';
import { runOracleEpisode } from '../../runtime/sim/livestream/run-episode.js';

/**
 * @example
 * const teacher = oracleTeacher();
 */
export function oracleTeacher(): Teacher {
  return {
    name: 'oracle',
    exact: false,
    async generate(request) {
      const episode = request.task.episode;
      if (!episode) return { skip: 'the oracle teacher plays simulated episodes only (use inputs.simulate)' };
      const played = await runOracleEpisode({
        entry: episode.entry,
        seed: episode.seed,
        base: request.base,
        ...(request.variant
          ? { variant: { harness: request.variant.harness, relabel: request.variant.relabel } }
          : {}),
      });
      return { trajectory: { ...played.trajectory, id: request.task.id } };
    },
  };
}

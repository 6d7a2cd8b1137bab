// The replay scenario's scripted policies. `gold` plays the logged conversation, moved into the variant's
// vocabulary by the variant's relabel (forward), so it is what a harness-aware agent does; `base-names`
// plays the log as written, base names and all, under any harness: what a model that memorised one
// harness does. Both play through the runtime's Episode and agent loop, so hooks and tools really run.
import { hashHarness } from '../../harness/hash.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { runTurn } from '../../runtime/agent-loop.js';
import { Episode } from '../../runtime/episode.js';
import type { OracleInput, OracleResult, ScenarioOracle } from '../../runtime/scenario.js';
import { forwardTrajectory } from '../../trajectory/relabel.js';
import type { Trajectory } from '../../trajectory/schema.js';
import { ScriptedModel, scriptedTurns, userMessages } from './scripted-model.js';

/** Which script a replay oracle plays: the relabelled gold, or the gold with its base names kept. */
export type ReplayPlayer = 'gold' | 'base-names';

/**
 * The players, in the order the CLI lists them.
 *
 * @example
 * replayPlayers // ['gold', 'base-names']
 */
export const replayPlayers: readonly ReplayPlayer[] = ['gold', 'base-names'];

/** The script a player follows for one episode, and what moving it into the variant reported. */
function scriptFor(input: OracleInput, player: ReplayPlayer): { script: Trajectory; deviations: string[] } {
  const gold = input.episode.gold;
  if (!gold)
    throw new HarnessAugmentError(`episode ${input.episode.id} has no gold trajectory to replay`, {
      kind: 'usage',
    });
  if (!input.variant || player === 'base-names') return { script: gold, deviations: [] };
  const moved = forwardTrajectory(gold, input.variant.relabel, input.variant.harness);
  return {
    script: moved.trajectory,
    deviations: moved.issues.map(
      (issue) => `the relabelled gold does not hold under the variant: ${issue.message}`,
    ),
  };
}

/**
 * A scripted oracle that replays each episode's gold trajectory through the runtime.
 *
 * @example
 * const oracle = replayOracle('base-names');
 * const { trajectory } = await oracle.play({ base, seed: '1', episode, variant, tools });
 */
export function replayOracle(player: ReplayPlayer = 'gold'): ScenarioOracle {
  if (!replayPlayers.includes(player))
    throw new HarnessAugmentError(
      `unknown replay player "${player}": expected ${replayPlayers.map((name) => `"${name}"`).join(' or ')}`,
      { kind: 'usage' },
    );
  return {
    async play(input: OracleInput): Promise<OracleResult> {
      const { script, deviations } = scriptFor(input, player);
      const harness = input.variant?.harness ?? input.base;
      const model = new ScriptedModel(scriptedTurns(script), `replay-${player}`);
      const episode = new Episode({
        harness,
        context: input.episode.context,
        tools: input.tools,
        ...(input.maxStepsPerTurn !== undefined ? { maxStepsPerTurn: input.maxStepsPerTurn } : {}),
        hookChecks: input.hookChecks,
        run: input.run,
      });
      try {
        for (const [turn, text] of userMessages(script).entries()) {
          input.signal?.throwIfAborted();
          await episode.user(text);
          model.startTurn(turn);
          await runTurn(episode, model, {}, input.signal);
        }
      } finally {
        episode.close();
      }
      deviations.push(...model.deviations);
      if (input.strict && deviations.length > 0)
        throw new HarnessAugmentError(
          `episode ${input.episode.id}: the replay left the log: ${deviations.join('; ')}`,
        );
      const meta = { ...(input.episode.labels ?? {}), replay_player: player };
      const trajectory: Trajectory = {
        ...episode.trajectory(input.episode.id, meta),
        harness: { id: harness.id, hash: hashHarness(harness).harness },
      };
      return { trajectory, deviations, toolLog: episode.toolLog, turnEnds: episode.turnEnds };
    },
  };
}

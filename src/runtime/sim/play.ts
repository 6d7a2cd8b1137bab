// Plays one episode of any scenario: the scenario's backend answers the tools (in the played harness's
// vocabulary through `variantTools`, with seeded faults where asked), and either a model through the agent
// loop or the scenario's oracle plays the episode's user turns. The simulator and the teachers call this.
import { hashHarness } from '../../harness/hash.js';
import type { HookCheckRegistry } from '../../harness/hook-checks.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { type RunContext, runContextOf } from '../../harness/run-context.js';
import type { Harness } from '../../harness/schema.js';
import type { Trajectory } from '../../trajectory/schema.js';
import { type AgentRunOptions, runAgent } from '../agent-loop.js';
import type { ChatModel } from '../chat-model.js';
import type { ToolRecord, TurnEnd } from '../episode.js';
import { type FaultOptions, withFaults } from '../faults.js';
import { splitTurns } from '../rewards/turns.js';
import type { Scenario, ScenarioEpisode, ScenarioRunContext, ScenarioVariant } from '../scenario.js';
import { stepLimitFor, truncatedTurns, truncationDeviation } from '../step-limit.js';
import type { ToolRuntime } from '../tool-runtime.js';
import { variantTools } from '../variant-tools.js';

/** What `playScenarioEpisode` plays: the scenario and episode, a variant, a model or the oracle, faults. */
export interface PlayOptions extends ScenarioRunContext {
  scenario: Scenario;
  episode: ScenarioEpisode;
  /** Play under this variant of the base harness; undefined: under the base. */
  variant?: ScenarioVariant;
  /** Play with a model through the agent loop instead of the scenario's oracle. */
  model?: { model: ChatModel; request?: AgentRunOptions['request'] };
  /** Seeded tool faults; the draw for call k uses `${seed}:${episode.id}:fault:${k}`. */
  faults?: Omit<FaultOptions, 'seed'>;
  /** Assert every hook decision of a scripted oracle (fixture generation). */
  strict?: boolean;
  /** Most assistant messages per user turn (default: `stepLimitFor`, at least the gold's longest turn). */
  maxStepsPerTurn?: number;
  /** The custom hook checks the harness names (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
  /** The run the play belongs to (`createRunContext`); default: one of its own, with `hookChecks`. */
  run?: RunContext | undefined;
  signal?: AbortSignal;
}

/** One episode as played: its trajectory, where it left the gold, the tool calls that ran, its step limit. */
export interface PlayedEpisode {
  /** The episode as played, in the played harness's vocabulary. */
  trajectory: Trajectory;
  /** Where the play left the gold; a truncated turn is one. */
  deviations: string[];
  /** Registry tool calls as they ran. */
  toolLog: readonly ToolRecord[];
  /** The step limit the episode ran under. */
  maxStepsPerTurn: number;
  /** 0-based user turns the step limit cut (also in the trajectory's `meta.truncated`). */
  truncatedTurns: number[];
}

/** Counts the registry calls a runtime answers, for oracles that do not report their tool log. */
function logged(runtime: ToolRuntime, log: ToolRecord[]): ToolRuntime {
  return {
    async call(request, context) {
      const outcome = await runtime.call(request, context);
      log.push({
        callId: request.id,
        name: request.name,
        content: outcome.content,
        ms: 0,
        ...(outcome.error ? { error: outcome.error } : {}),
      });
      return outcome;
    },
  };
}

/**
 * Marks the turns the step limit cut: a deviation each, and `meta.truncated` on the trajectory, so that a
 * cut episode is counted as truncated and never read as a whole replay. Without the runtime's turn ends (an
 * oracle that does not report them), a turn that ended with neither a reply nor a hook's end was cut.
 */
function markTruncated(
  played: Omit<PlayedEpisode, 'maxStepsPerTurn' | 'truncatedTurns'>,
  turnEnds: readonly (TurnEnd | undefined)[] | undefined,
  { harness, maxStepsPerTurn }: { harness: Harness; maxStepsPerTurn: number },
): PlayedEpisode {
  const cut = turnEnds
    ? truncatedTurns(turnEnds)
    : splitTurns(played.trajectory, harness).flatMap((turn) => (turn.ending === 'none' ? [turn.index] : []));
  if (cut.length === 0) return { ...played, maxStepsPerTurn, truncatedTurns: [] };
  return {
    trajectory: {
      ...played.trajectory,
      meta: { ...played.trajectory.meta, truncated: { turns: cut, max_steps_per_turn: maxStepsPerTurn } },
    },
    deviations: [...played.deviations, ...cut.map((turn) => truncationDeviation(turn, maxStepsPerTurn))],
    toolLog: played.toolLog,
    maxStepsPerTurn,
    truncatedTurns: cut,
  };
}

const isUserTurn = (message: Trajectory['messages'][number]) => message.role === 'user' && !message.hsa;

/**
 * Plays one episode, in the run given (its hook checks; a scenario's oracle gets the run and its hook
 * checks). Given both `run` and `hookChecks`, they must be the run's own, else a usage error.
 *
 * @example
 * const played = await playScenarioEpisode({ scenario, episode, base, seed, variant, faults: { rate: 0.2 } });
 * // In a run of your own, shared with what else the run plays:
 * const run = createRunContext({ hookChecks });
 * const inRun = await playScenarioEpisode({ scenario, episode, base, seed, run });
 */
export async function playScenarioEpisode(options: PlayOptions): Promise<PlayedEpisode> {
  const { scenario, episode, base, seed } = options;
  const run = runContextOf(options.run, options.hookChecks);
  if (!options.model && !scenario.oracle)
    throw new HarnessAugmentError(
      `scenario "${scenario.name}" has no oracle: play its episodes with a model (an endpoint)`,
      { kind: 'usage' },
    );
  const context = { base, seed };
  const backend = await scenario.backend(episode, context);
  try {
    let tools = variantTools(backend, options.variant?.relabel);
    if (options.faults) tools = withFaults(tools, { ...options.faults, seed: `${seed}:${episode.id}` });
    const harness = options.variant?.harness ?? base;
    const maxStepsPerTurn = stepLimitFor(options.maxStepsPerTurn, episode.gold);
    // The run, and its hook checks for an oracle written before runs (it reads `hookChecks`).
    const shared = {
      maxStepsPerTurn,
      run,
      hookChecks: run.hookChecks,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    if (options.model) {
      const agent = await runAgent({
        harness,
        context: episode.context,
        tools,
        model: options.model.model,
        userMessages: episode.task.turns.map((turn) => turn.user),
        request: options.model.request ?? {},
        ...shared,
      });
      const trajectory: Trajectory = {
        ...agent.trajectory(episode.id, {
          ...episode.labels,
          turns: agent.messages.filter(isUserTurn).length,
          hook_events: [...agent.episode.hookEvents],
        }),
        harness: { id: harness.id, hash: hashHarness(harness).harness },
      };
      return markTruncated({ trajectory, deviations: [], toolLog: agent.episode.toolLog }, agent.turnEnds, {
        harness,
        maxStepsPerTurn,
      });
    }
    const log: ToolRecord[] = [];
    const result = await scenario.oracle!.play({
      ...context,
      episode,
      tools: logged(tools, log),
      ...(options.variant ? { variant: options.variant } : {}),
      ...(options.strict ? { strict: true } : {}),
      ...shared,
    });
    return markTruncated(
      { trajectory: result.trajectory, deviations: result.deviations, toolLog: result.toolLog ?? log },
      result.turnEnds,
      { harness, maxStepsPerTurn },
    );
  } finally {
    await backend.close?.();
  }
}

/**
 * An episode with its gold trajectory under the base harness: the scenario's own, else its oracle's play
 * (without faults) in the run given; unchanged when it has neither. A variant needs the gold to carry over.
 *
 * @example
 * const withGold = await withGold(scenario, episode, { base, seed }, { run });
 */
export async function withGold(
  scenario: Scenario,
  episode: ScenarioEpisode,
  context: ScenarioRunContext,
  options: Pick<PlayOptions, 'hookChecks' | 'run' | 'maxStepsPerTurn'> = {},
): Promise<ScenarioEpisode> {
  if (episode.gold || !scenario.oracle) return episode;
  const played = await playScenarioEpisode({ ...context, ...options, scenario, episode });
  return { ...episode, gold: played.trajectory };
}

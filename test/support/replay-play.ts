// Plays a scenario's episodes with its oracle, in process, the way the simulator does: plan, make each
// episode ready, give it its backend (calls mapped back to the base vocabulary under a variant, results
// moved forward), play, score. Tests use it to drive a scenario without the CLI.
import type { Harness } from '../../src/harness/schema.js';
import type { Scenario, ScenarioScore, ScenarioVariant, ToolBackend } from '../../src/runtime/scenario.js';
import { baseCall, type ToolRuntime, toolError } from '../../src/runtime/tool-runtime.js';
import { type Relabel, relabelMessages } from '../../src/trajectory/relabel.js';
import type { Trajectory } from '../../src/trajectory/schema.js';

/** A backend seen from a variant: calls mapped back through the inverse relabel, results moved forward. */
export function inVariant(backend: ToolBackend, relabel: Relabel | undefined): ToolRuntime {
  if (!relabel || relabel.steps.length === 0) return backend;
  return {
    async call(request, context) {
      const base = baseCall(request.name, request.rawArguments, relabel);
      let args: Record<string, unknown>;
      try {
        args = JSON.parse(base.arguments) as Record<string, unknown>;
      } catch {
        return toolError('invalid_arguments', `the arguments of "${request.name}" are not valid JSON`);
      }
      const outcome = await backend.call(
        { ...request, name: base.name, arguments: args, rawArguments: base.arguments },
        context,
      );
      const [moved] = relabelMessages(
        [{ role: 'tool', tool_call_id: request.id || 'call', content: outcome.content }],
        relabel,
        'forward',
        false,
      );
      return { ...outcome, content: (moved as { content: string }).content };
    },
  };
}

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
    const backend = await scenario.backend(episode, context);
    try {
      const result = await scenario.oracle!.play({
        ...context,
        episode,
        ...(variant ? { variant } : {}),
        tools: inVariant(backend, variant?.relabel),
      });
      const score = scenario.rewards!({
        ...context,
        episode,
        trajectory: result.trajectory,
        ...(variant ? { variant } : {}),
      });
      played.push({ id: episode.id, trajectory: result.trajectory, score, deviations: result.deviations });
    } finally {
      await backend.close?.();
    }
  }
  return played;
}

// The base tasks of a pipeline run, streamed in order: gold trajectories read from a JSONL file (each
// validated under the base harness; a bad line becomes a reject with its reason), or the episodes a
// scenario plans, each with its gold labels (and its gold trajectory, or its oracle's play under the base).
import { formatIssue, HarnessAugmentError, type Issue } from '../harness/issues.js';
import type { RunContext } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { taskFromTrajectory } from '../runtime/episode-task.js';
import type { Scenario } from '../runtime/scenario.js';
import { withGold } from '../runtime/sim/play.js';
import { assertScenarioRuns } from '../runtime/sim/simulate.js';
import { readJsonl } from '../trajectory/read-jsonl.js';
import { validateTrajectory } from '../trajectory/validate-trajectory.js';
import type { PipelineConfig } from './config.js';
import type { BaseTask } from './teacher.js';

/** An input that cannot become a task. */
export interface InputReject {
  reason: 'syntax_error' | 'invalid_trajectory' | 'duplicate_id';
  line?: number;
  id?: string;
  issues: Issue[];
}

export type InputItem = { task: BaseTask } | { reject: InputReject };

/** Whether the input at a 0-based position belongs to this shard. */
type Keep = (position: number) => boolean;

async function* fromFile(
  file: string,
  base: Harness,
  keep: Keep,
  run: RunContext,
): AsyncGenerator<InputItem> {
  const seen = new Set<string>();
  let position = 0;
  for await (const record of readJsonl(file)) {
    // Every line counts as a position, so that shards split lines the same way whatever they hold. Ids are
    // tracked over every line, so that a repeated id is rejected the same way in any shard.
    const mine = keep(position++);
    if ('issue' in record) {
      if (mine) yield { reject: { reason: 'syntax_error', line: record.line, issues: [record.issue] } };
      continue;
    }
    const id = (record.value as { id?: unknown } | null)?.id;
    const repeated = typeof id === 'string' && seen.has(id);
    if (typeof id === 'string') seen.add(id);
    if (!mine) continue;
    if (repeated) {
      yield {
        reject: {
          reason: 'duplicate_id',
          line: record.line,
          id,
          issues: [
            {
              code: 'duplicate_id',
              path: ['id'],
              message: `id "${id}" appears on an earlier line`,
              file,
              line: record.line,
            },
          ],
        },
      };
      continue;
    }
    const validation = validateTrajectory(record.value, base, { hookChecks: run.hookChecks });
    const trajectory = validation.trajectory;
    if (!validation.valid || !trajectory) {
      yield {
        reject: {
          reason: 'invalid_trajectory',
          line: record.line,
          ...(typeof id === 'string' ? { id } : {}),
          issues: validation.issues.map((issue) => ({ ...issue, file, line: record.line })),
        },
      };
      continue;
    }
    yield { task: { id: trajectory.id, trajectory, task: taskFromTrajectory(trajectory, base) } };
  }
}

async function* fromSimulation(
  simulate: Extract<PipelineConfig['inputs'], { simulate: unknown }>['simulate'],
  base: Harness,
  scenario: Scenario | undefined,
  keep: Keep,
  run: RunContext,
  maxStepsPerTurn?: number,
): AsyncGenerator<InputItem> {
  if (!scenario)
    throw new HarnessAugmentError(
      `inputs.simulate needs the scenario "${simulate.scenario}" resolved by the caller (dependencies.scenario)`,
      { kind: 'usage' },
    );
  assertScenarioRuns(scenario, base);
  const seed = simulate.seed ?? scenario.seed ?? '0';
  const context = { base, seed };
  const plan = await scenario.plan({
    ...context,
    episodes: simulate.episodes ?? scenario.defaultEpisodes(context),
    ...(simulate.idPrefix !== undefined ? { idPrefix: simulate.idPrefix } : {}),
  });
  for (const [position, planned] of plan.entries()) {
    if (!keep(position)) continue;
    // The gold under the base harness: the scenario's own, or its oracle's play.
    const episode = await withGold(scenario, await scenario.episode(planned, context), context, {
      run,
      ...(maxStepsPerTurn !== undefined ? { maxStepsPerTurn } : {}),
    });
    if (!episode.gold)
      throw new HarnessAugmentError(
        `scenario "${scenario.name}" gives episode "${episode.id}" no gold trajectory and has no oracle to play one`,
        { kind: 'usage' },
      );
    yield {
      task: {
        id: episode.id,
        trajectory: episode.gold,
        task: episode.task,
        episode: { scenario, episode, seed },
      },
    };
  }
}

/**
 * @example
 * for await (const item of readInputs(config, harness, run, { index: 0, count: 4 }, scenario)) if ('task' in item) console.log(item.task.id);
 */
export function readInputs(
  config: PipelineConfig,
  base: Harness,
  run: RunContext,
  shard?: { index: number; count: number },
  scenario?: Scenario,
): AsyncGenerator<InputItem> {
  const keep: Keep = shard ? (position) => position % shard.count === shard.index : () => true;
  return 'trajectories' in config.inputs
    ? fromFile(config.inputs.trajectories, base, keep, run)
    : fromSimulation(config.inputs.simulate, base, scenario, keep, run, config.maxStepsPerTurn);
}

export const describeReject = (reject: InputReject) =>
  reject.issues.length > 0 ? formatIssue(reject.issues[0]!) : reject.reason;

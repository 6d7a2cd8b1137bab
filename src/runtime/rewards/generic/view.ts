// What every generic reward reads: the played trajectory in its own harness, the same trajectory mapped
// back to the base vocabulary (the variant's relabel inverted), and the gold. Built once per score input.
import type { Harness } from '../../../harness/schema.js';
import { invertOutput, type Relabel } from '../../../trajectory/relabel.js';
import type { Trajectory } from '../../../trajectory/schema.js';
import type { EpisodeTask } from '../../episode-task.js';
import type { ScoreInput } from '../../scenario.js';
import { splitTurns, type UserTurn } from '../turns.js';

export interface GenericView {
  base: Harness;
  /** The harness the episode was played under (the variant's, or the base). */
  played: Harness;
  relabel?: Relabel;
  trajectory: Trajectory;
  /** The trajectory in the base vocabulary: the same messages, at the same indexes. */
  inBase: Trajectory;
  /** Turns of `trajectory` under `played`: call kinds and statuses as the played harness decided them. */
  playedTurns: UserTurn[];
  /** Turns of `inBase` under `base`: base names and arguments. */
  baseTurns: UserTurn[];
  gold?: Trajectory;
  goldTurns?: UserTurn[];
  task: EpisodeTask;
}

// Pure function of content across runs: a score input's view, by the input object (read as immutable).
const views = new WeakMap<ScoreInput, GenericView>();

/**
 * The view of one score input (cached per input object).
 *
 * @example
 * genericView(input).inBase.messages // the played messages in base names, at the same indexes
 */
export function genericView(input: ScoreInput): GenericView {
  const cached = views.get(input);
  if (cached) return cached;
  const played = input.variant?.harness ?? input.base;
  const relabel = input.variant && input.variant.relabel.steps.length > 0 ? input.variant.relabel : undefined;
  const inBase = relabel
    ? { ...input.trajectory, messages: invertOutput(input.trajectory.messages, relabel) }
    : input.trajectory;
  const gold = input.episode.gold;
  const view: GenericView = {
    base: input.base,
    played,
    ...(relabel ? { relabel } : {}),
    trajectory: input.trajectory,
    inBase,
    playedTurns: splitTurns(input.trajectory, played),
    baseTurns: relabel ? splitTurns(inBase, input.base) : splitTurns(input.trajectory, input.base),
    ...(gold ? { gold, goldTurns: splitTurns(gold, input.base) } : {}),
    task: input.episode.task,
  };
  views.set(input, view);
  return view;
}

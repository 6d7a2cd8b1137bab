// The tool-call match reward: the registry calls an episode made, in the base vocabulary, against the
// gold's, by tool name and canonical arguments, order-aware, as an F1 over the turns.
import { canonicalJson } from '../../../harness/canonical-json.js';
import { validateAgainstSchema } from '../../../harness/json-schema-validator.js';
import { offeredTools } from '../../../harness/offered-tools.js';
import type { ScoreInput } from '../../scenario.js';
import type { RewardFinding, RewardResult } from '../reward.js';
import { genericView } from './view.js';

/** One call of a turn, in the base vocabulary. */
export interface MatchedCall {
  turn: number;
  /** Index in `trajectory.messages` (the played trajectory's, or the gold's for gold calls). */
  message: number;
  call: number;
  name: string;
  arguments: string;
  /** False for a call that cannot match: a tool the played harness lacks, or arguments its schema rejects. */
  matchable: boolean;
}

/** How the played tool calls matched the gold: the mode, F1, precision and recall. */
export interface ToolCallMatchDetails {
  /** `calls`: names and arguments compared; `names`: only names (no gold trajectory, labels only). */
  mode: 'calls' | 'names';
  /** 2·matched / (gold + played); 1 when both are empty. */
  f1: number;
  precision: number;
  recall: number;
  /** The same F1 comparing tool names only. */
  nameF1: number;
  gold: number;
  played: number;
  matched: number;
  /** `missing_call` (a gold call not matched) and `extra_call` (a played call not matched). */
  findings: RewardFinding[];
}

const argumentsKey = (raw: string) => {
  try {
    return canonicalJson(JSON.parse(raw));
  } catch {
    return `\u0000raw:${raw}`;
  }
};

/** Calls of one message run concurrently: their order is not the agent's choice, so they compare as a set. */
function inMessageOrder(calls: MatchedCall[]): MatchedCall[] {
  return [...calls].sort(
    (a, b) =>
      a.message - b.message ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      (argumentsKey(a.arguments) < argumentsKey(b.arguments) ? -1 : 1),
  );
}

/** Longest common subsequence of two sequences under `same`, as matched index pairs. */
function longestCommon<T>(
  a: readonly T[],
  b: readonly T[],
  same: (x: T, y: T) => boolean,
): [number, number][] {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i]![j] = same(a[i]!, b[j]!)
        ? table[i + 1]![j + 1]! + 1
        : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (same(a[i]!, b[j]!)) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

const f1Of = (matched: number, gold: number, played: number) =>
  gold + played === 0 ? 1 : (2 * matched) / (gold + played);

/**
 * The calls of each turn as compared: the played registry calls that no hook rejected (mapped to base
 * names and arguments), and the gold's.
 *
 * @example
 * comparedCalls(input).played[0].map((call) => call.name) // ['find_flights', 'hold_seat']
 */
export function comparedCalls(input: ScoreInput): { gold: MatchedCall[][]; played: MatchedCall[][] } {
  const view = genericView(input);
  const schemas = new Map(offeredTools(view.played).map((tool) => [tool.name, tool.parameters]));
  const loader = view.base.skills.loader.tool;
  const played = view.playedTurns.map((turn, index) => {
    const baseCalls = view.baseTurns[index]?.calls ?? [];
    const calls: MatchedCall[] = [];
    for (const call of turn.calls) {
      if (call.kind === 'loader' || call.status === 'rejected') continue;
      const base = baseCalls.find(
        (other) => other.message === call.message && other.position === call.position,
      );
      if (base?.kind === 'loader' || (base === undefined && call.name === loader)) continue;
      let matchable = call.kind === 'registry';
      if (matchable) {
        try {
          matchable =
            validateAgainstSchema(schemas.get(call.name) ?? {}, JSON.parse(call.arguments)).length === 0;
        } catch {
          matchable = false;
        }
      }
      calls.push({
        turn: index,
        message: call.message,
        call: call.position,
        name: base?.name ?? call.name,
        arguments: base?.arguments ?? call.arguments,
        matchable,
      });
    }
    return inMessageOrder(calls);
  });
  const gold = (view.goldTurns ?? []).map((turn, index) =>
    inMessageOrder(
      turn.calls
        .filter((call) => call.kind === 'registry' && call.status !== 'rejected')
        .map((call) => ({
          turn: index,
          message: call.message,
          call: call.position,
          name: call.name,
          arguments: call.arguments,
          matchable: true,
        })),
    ),
  );
  return { gold, played };
}

/**
 * Scores how closely the episode's tool calls follow the gold's. Per turn, the played calls are the
 * registry calls no hook rejected (the skill loader excluded), mapped back to base names and arguments;
 * the gold calls are the gold trajectory's, chosen the same way. A played call matches a gold call when
 * both name the same tool with canonically equal arguments and the played call was well-formed under the
 * harness it was played under (the tool exists there and its arguments validate): a call in base names
 * under a variant that renamed the tool never matches. Order counts across steps (the longest common
 * subsequence of the two sequences), not within one message (parallel calls compare as a set). The score
 * is F1 = 2·Σmatched / (Σgold + Σplayed) over the turns, 1 when neither side calls anything. Without a
 * gold trajectory, the task's tool names per turn are the gold and only names are compared.
 *
 * @example
 * toolCallMatchReward(input).score // 0.8: 2 of 3 gold calls matched, 2 calls played
 */
export function toolCallMatchReward(input: ScoreInput): RewardResult<ToolCallMatchDetails> {
  const view = genericView(input);
  const compared = comparedCalls(input);
  const played = compared.played;
  const findings: RewardFinding[] = [];
  const mode = view.gold ? 'calls' : 'names';
  const gold =
    mode === 'calls'
      ? compared.gold
      : view.task.turns.map((turn, index) =>
          turn.tools.map((name, position) => ({
            turn: index,
            message: -1,
            call: position,
            name,
            arguments: '',
            matchable: true,
          })),
        );
  const sameCall = (a: MatchedCall, b: MatchedCall) =>
    a.matchable &&
    b.matchable &&
    a.name === b.name &&
    (mode === 'names' || argumentsKey(a.arguments) === argumentsKey(b.arguments));
  const sameName = (a: MatchedCall, b: MatchedCall) => a.matchable && b.matchable && a.name === b.name;
  let matched = 0;
  let namesMatched = 0;
  let goldCount = 0;
  let playedCount = 0;
  const turns = Math.max(gold.length, played.length);
  for (let turn = 0; turn < turns; turn++) {
    const expected = gold[turn] ?? [];
    const made = played[turn] ?? [];
    goldCount += expected.length;
    playedCount += made.length;
    const pairs = longestCommon(expected, made, sameCall);
    matched += pairs.length;
    namesMatched += longestCommon(expected, made, sameName).length;
    const goldHit = new Set(pairs.map(([g]) => g));
    const playedHit = new Set(pairs.map(([, p]) => p));
    expected.forEach((call, index) => {
      if (goldHit.has(index)) return;
      findings.push({
        code: 'missing_call',
        turn,
        reason: `the gold calls "${call.name}"${mode === 'calls' ? ` with ${call.arguments}` : ''} here; no matching call was made`,
        values: mode === 'calls' ? [call.name, call.arguments] : [call.name],
      });
    });
    made.forEach((call, index) => {
      if (playedHit.has(index)) return;
      findings.push({
        code: 'extra_call',
        turn,
        message: call.message,
        call: call.call,
        reason: call.matchable
          ? `call of "${call.name}" with ${call.arguments} matches no gold call of this turn`
          : `call of "${call.name}" is not well-formed under the played harness (unknown tool or invalid arguments)`,
        values: [call.name, call.arguments],
      });
    });
  }
  const f1 = f1Of(matched, goldCount, playedCount);
  return {
    score: f1,
    details: {
      mode,
      f1,
      precision: playedCount === 0 ? (goldCount === 0 ? 1 : 0) : matched / playedCount,
      recall: goldCount === 0 ? (playedCount === 0 ? 1 : 0) : matched / goldCount,
      nameF1: f1Of(namesMatched, goldCount, playedCount),
      gold: goldCount,
      played: playedCount,
      matched,
      findings,
    },
  };
}

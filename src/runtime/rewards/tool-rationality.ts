// The tool-rationality reward: the right tools called in each turn, every call's arguments valid under the
// harness's JSON Schema, and no call repeating one that already succeeded; the mean of the three parts.
import { canonicalJson } from '../../harness/canonical-json.js';
import { validateAgainstSchema } from '../../harness/json-schema-validator.js';
import { offeredTools } from '../../harness/offered-tools.js';
import type { Harness, Tool } from '../../harness/schema.js';
import type { Trajectory } from '../../trajectory/schema.js';
import type { EpisodeTask } from '../episode-task.js';
import type { RewardFinding, RewardResult } from './reward.js';
import { splitTurns, type TurnToolCall } from './turns.js';

export interface ToolRationalityDetails {
  /** Expected (turn, tool) pairs called, over expected pairs plus turns that call tools when none are expected. */
  rightTools: number;
  /** Share of calls (loader included) whose arguments are JSON that validates against the tool's schema. */
  validArguments: number;
  /** 1 − the share of calls that repeat an earlier successful call of the same turn. */
  noRedundancy: number;
  /** Tool calls counted, the loader's included. */
  calls: number;
  /** `missing_tool`, `unexpected_tool`, `unknown_tool`, `invalid_arguments_json`, `invalid_arguments`, `redundant_call`. */
  findings: RewardFinding[];
}

/** The arguments as a comparable key: canonical JSON when they parse, else the raw text. */
function argumentsKey(raw: string): string {
  try {
    return `json:${canonicalJson(JSON.parse(raw))}`;
  } catch {
    return `raw:${raw}`;
  }
}

function checkArguments(call: TurnToolCall, tool: Tool | undefined, turn: number): RewardFinding | undefined {
  const where = { turn, message: call.message, call: call.position };
  if (!tool)
    return {
      code: 'unknown_tool',
      ...where,
      reason: `tool "${call.name}" does not exist in the harness`,
      values: [call.name],
    };
  let value: unknown;
  try {
    value = JSON.parse(call.arguments);
  } catch {
    return {
      code: 'invalid_arguments_json',
      ...where,
      reason: `arguments of "${call.name}" are not valid JSON`,
      values: [call.arguments],
    };
  }
  const errors = validateAgainstSchema(tool.parameters, value);
  if (errors.length === 0) return undefined;
  return {
    code: 'invalid_arguments',
    ...where,
    reason: `arguments of "${call.name}" are invalid: ${errors.join('; ')}`,
    values: errors,
  };
}

/**
 * Scores how rationally the episode used its tools, as the mean of three parts:
 * - right tools: each task tool of a turn that the turn called at least once (whatever the result) is a hit;
 *   the part is hits / (expected pairs + turns that call registry tools although the task expects none),
 *   and 1 when that denominator is 0;
 * - valid arguments: the share of all calls, loader included, whose arguments parse as JSON and validate
 *   against the offered tool's JSON Schema; a call to a tool the harness lacks is invalid; 1 without calls;
 * - no redundancy: 1 − the share of calls that repeat, in the same turn, an earlier call of the same tool
 *   with canonically equal arguments whose result was successful (a retry after an error is no repeat).
 *
 * @example
 * const { score, details } = toolRationalityReward(trajectory, harness, task);
 * details.rightTools // 0.5 when one of two expected tools was never called
 */
export function toolRationalityReward(
  trajectory: Trajectory,
  harness: Harness,
  task: EpisodeTask,
): RewardResult<ToolRationalityDetails> {
  const tools = new Map(offeredTools(harness).map((tool) => [tool.name, tool]));
  const turns = splitTurns(trajectory, harness);
  const findings: RewardFinding[] = [];
  const turnCount = Math.max(turns.length, task.turns.length);

  let hits = 0;
  let rightDenominator = 0;
  for (let index = 0; index < turnCount; index++) {
    const expected = [...new Set(task.turns[index]?.tools ?? [])];
    const registryCalls = (turns[index]?.calls ?? []).filter((call) => call.kind === 'registry');
    if (expected.length === 0) {
      if (registryCalls.length === 0) continue;
      rightDenominator++;
      const names = [...new Set(registryCalls.map((call) => call.name))];
      findings.push({
        code: 'unexpected_tool',
        turn: index,
        message: registryCalls[0]?.message,
        reason: `the task expects no tool in this turn, but ${names.map((name) => `"${name}"`).join(', ')} was called`,
        values: names,
      });
      continue;
    }
    rightDenominator += expected.length;
    for (const name of expected) {
      if (registryCalls.some((call) => call.name === name)) hits++;
      else
        findings.push({
          code: 'missing_tool',
          turn: index,
          reason: `expected tool "${name}" was not called in this turn`,
          values: [name],
        });
    }
  }

  let calls = 0;
  let valid = 0;
  let redundant = 0;
  for (const turn of turns) {
    const succeeded = new Set<string>();
    for (const call of turn.calls) {
      calls++;
      const invalid = checkArguments(call, tools.get(call.name), turn.index);
      if (invalid) findings.push(invalid);
      else valid++;
      const key = `${call.name}\u0000${argumentsKey(call.arguments)}`;
      if (succeeded.has(key)) {
        redundant++;
        findings.push({
          code: 'redundant_call',
          turn: turn.index,
          message: call.message,
          call: call.position,
          reason: `repeats an earlier successful call of "${call.name}" with the same arguments in this turn`,
          values: [call.name, call.arguments],
        });
      }
      if (call.status === 'ok') succeeded.add(key);
    }
  }

  const rightTools = rightDenominator === 0 ? 1 : hits / rightDenominator;
  const validArguments = calls === 0 ? 1 : valid / calls;
  const noRedundancy = calls === 0 ? 1 : 1 - redundant / calls;
  return {
    score: (rightTools + validArguments + noRedundancy) / 3,
    details: { rightTools, validArguments, noRedundancy, calls, findings },
  };
}

// The pure hook engine: a declarative hook and one step of the agent loop in, pass or fail out, with the
// feedback rendered from the hook's template. The runtime and the trajectory validator both call it.
import { canonicalJson } from './canonical-json.js';
import { validateAgainstSchema } from './json-schema-validator.js';
import { offeredTools } from './offered-tools.js';
import type { Harness, Hook, HookCheck, HookStage } from './schema.js';
import { renderTemplate } from './template-engine.js';

/** What a hook sees of the agent loop at its stage. */
export interface HookStep {
  stage: HookStage;
  /** input: the viewer message; post_tool: the tool result; pre_reply and post_reply: the reply. */
  text?: string;
  /** pre_tool and post_tool: the tool call. */
  call?: { name: string; arguments: string };
  /** Skill ids loaded by accepted skill-loader calls, since the latest viewer message and in the whole conversation. */
  loadedSkills?: { turn: readonly string[]; conversation: readonly string[] };
  /** pre_tool: tool calls in the current turn, this one included. */
  toolCallsThisTurn?: number;
  /** Contents of the real tool results so far. */
  toolResults?: readonly string[];
  /** Viewer messages so far. */
  userMessages?: readonly string[];
  /** The request context. */
  context?: Record<string, unknown>;
  /** 1-based number of the attempt that the feedback would answer. */
  attempt?: number;
}

export type HookOutcome =
  | { pass: true; hook: string }
  | {
      pass: false;
      hook: string;
      /** A plain English sentence saying what failed. */
      reason: string;
      /** Check-specific values, also available to the feedback template. */
      details: Record<string, unknown>;
      /** The rendered feedback when the hook retries; undefined otherwise. */
      feedback?: string;
    };

type Failure = { reason: string; details: Record<string, unknown> };

const numberPattern = /\d+(?:,\d{3})*(?:\.\d+)?/g;

/**
 * Extracts the numbers of a text as canonical strings (thousands separators dropped, `199.00` → `199`).
 *
 * @example
 * extractNumbers('¥1,299.00 or 2 for ¥2400') // ['1299', '2', '2400']
 */
export function extractNumbers(text: string): string[] {
  return [...text.matchAll(numberPattern)].map((match) => String(Number(match[0].replaceAll(',', ''))));
}

/** Unicode code points, so that Chinese and emoji count one each. */
const codePointLength = (text: string) => [...text].length;

function runCheck(check: HookCheck, step: HookStep, harness: Harness): Failure | undefined {
  const text = step.text ?? '';
  switch (check.type) {
    case 'banned_terms': {
      const haystack = check.caseSensitive ? text : text.toLowerCase();
      const found = check.terms.filter((term) =>
        haystack.includes(check.caseSensitive ? term : term.toLowerCase()),
      );
      return found.length === 0
        ? undefined
        : { reason: `uses banned term(s): ${found.join(', ')}`, details: { found, terms: check.terms } };
    }
    case 'max_length': {
      const length = codePointLength(text);
      return length <= check.max
        ? undefined
        : {
            reason: `is ${length} characters long, more than ${check.max}`,
            details: { length, max: check.max },
          };
    }
    case 'regex': {
      const match = new RegExp(check.pattern, check.flags).exec(text);
      if (check.mode === 'must' && !match)
        return {
          reason: `does not match /${check.pattern}/`,
          details: { pattern: check.pattern, match: '' },
        };
      if (check.mode === 'must_not' && match)
        return {
          reason: `matches /${check.pattern}/ at "${match[0]}"`,
          details: { pattern: check.pattern, match: match[0] },
        };
      return undefined;
    }
    case 'skill_loaded': {
      const loaded = check.scope === 'turn' ? step.loadedSkills?.turn : step.loadedSkills?.conversation;
      const kinds = new Map(harness.skills.items.map((skill) => [skill.id, skill.kind]));
      const ok = (loaded ?? []).some((id) => check.kind === 'any' || kinds.get(id) === check.kind);
      const what = check.kind === 'any' ? 'skill' : `${check.kind} skill`;
      return ok
        ? undefined
        : {
            reason: `no ${what} was loaded ${check.scope === 'turn' ? 'in this turn' : 'yet'}`,
            details: { kind: check.kind },
          };
    }
    case 'tool_arguments': {
      const call = step.call;
      if (!call) return undefined;
      const tool = offeredTools(harness).find((candidate) => candidate.name === call.name);
      if (!tool)
        return {
          reason: `tool "${call.name}" does not exist`,
          details: { tool: call.name, errors: ['unknown tool'] },
        };
      let value: unknown;
      try {
        value = JSON.parse(call.arguments);
      } catch {
        return {
          reason: `arguments of "${call.name}" are not valid JSON`,
          details: { tool: call.name, errors: ['not JSON'] },
        };
      }
      const errors = validateAgainstSchema(tool.parameters, value);
      return errors.length === 0
        ? undefined
        : {
            reason: `arguments of "${call.name}" are invalid: ${errors.join('; ')}`,
            details: { tool: call.name, errors },
          };
    }
    case 'max_tool_calls': {
      const count = step.toolCallsThisTurn ?? 0;
      return count <= check.max
        ? undefined
        : {
            reason: `${count} tool calls in this turn, more than ${check.max}`,
            details: { count, max: check.max },
          };
    }
    case 'numbers_grounded': {
      const allowed = new Set(check.ignore.map((number) => extractNumbers(number)[0] ?? number));
      for (const source of check.sources) {
        const texts =
          source === 'tool_results'
            ? (step.toolResults ?? [])
            : source === 'user'
              ? (step.userMessages ?? [])
              : [canonicalJson(step.context ?? {})];
        for (const sourceText of texts) for (const number of extractNumbers(sourceText)) allowed.add(number);
      }
      const numbers = [...new Set(extractNumbers(text).filter((number) => !allowed.has(number)))];
      return numbers.length === 0
        ? undefined
        : {
            reason: `states number(s) not found in the sources: ${numbers.join(', ')}`,
            details: { numbers },
          };
    }
    case 'json_shape': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return { reason: 'is not valid JSON', details: { errors: ['not JSON'] } };
      }
      const errors = validateAgainstSchema(check.schema, value);
      return errors.length === 0
        ? undefined
        : { reason: `has the wrong JSON shape: ${errors.join('; ')}`, details: { errors } };
    }
  }
}

/**
 * Evaluates one hook on one step. The feedback is rendered only for `retry` hooks, over
 * `{ hook, reason, attempt, maxRetries, ...details }`.
 *
 * @example
 * evaluateHook(bannedTermsHook, { stage: 'pre_reply', text: 'The best price!' }, harness)
 * // { pass: false, hook: 'no_absolute_claims', reason: 'uses banned term(s): best', details: { found: ['best'], … }, feedback: '…' }
 */
export function evaluateHook(hook: Hook, step: HookStep, harness: Harness): HookOutcome {
  const failure = runCheck(hook.check, step, harness);
  if (!failure) return { pass: true, hook: hook.id };
  const outcome: HookOutcome = {
    pass: false,
    hook: hook.id,
    reason: failure.reason,
    details: failure.details,
  };
  if (hook.onFail.action === 'retry') {
    outcome.feedback = renderTemplate(hook.onFail.feedback, {
      ...failure.details,
      hook: hook.id,
      reason: failure.reason,
      attempt: step.attempt ?? 1,
      maxRetries: hook.onFail.maxRetries,
    });
  }
  return outcome;
}

/**
 * Runs the enabled hooks of the step's stage in harness order and returns the first failure, or a pass.
 *
 * @example
 * const outcome = runHooks(harness, { stage: 'pre_reply', text: reply, loadedSkills, toolResults, userMessages });
 */
export function runHooks(harness: Harness, step: HookStep): HookOutcome | undefined {
  for (const hook of harness.hooks.items) {
    if (!hook.enabled || hook.stage !== step.stage) continue;
    const outcome = evaluateHook(hook, step, harness);
    if (!outcome.pass) return outcome;
  }
  return undefined;
}

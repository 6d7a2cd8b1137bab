// The pure hook engine: a declarative hook and one step of the agent loop in, pass or fail out, with the
// feedback rendered from the hook's template. The hook decision (hook-decision.ts) calls it for the runtime
// and the trajectory validator alike.
import { BoundedCache } from './bounded-cache.js';
import { canonicalJson } from './canonical-json.js';
import { customParams, type HookCheckRegistry, noHookChecks } from './hook-checks.js';
import type { HookStep } from './hook-step.js';
import { HarnessAugmentError } from './issues.js';
import { validateAgainstSchema } from './json-schema-validator.js';
import { compileLinearPattern } from './linear-pattern.js';
import { objectMemo } from './object-memo.js';
import { offeredTool } from './offered-tools.js';
import type { Harness, Hook, HookCheck } from './schema.js';
import { renderTemplate } from './template-engine.js';
import { textNumbering } from './text-numbers.js';

export type { HookStep } from './hook-step.js';

/**
 * What one hook decided on a step: pass, or fail with the reason, the check's details and the rendered
 * feedback.
 */
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

/**
 * The numbers of a source text, once per text content: a walk asks for every earlier tool result at every
 * reply, and the walks of one example (its variant, its hook steps' candidates) ask for the same texts.
 */
function numbersIn(text: string): readonly string[] {
  return sourceNumbers.get(text) ?? sourceNumbers.set(text, extractNumbers(text));
}
// Pure function of content across runs: a text's numbers, by the text.
const sourceNumbers = new BoundedCache<string, readonly string[]>(
  4 << 20,
  (text, numbers) => 2 * text.length + 64 + numbers.reduce((sum, number) => sum + 2 * number.length + 32, 0),
  'hook-engine.sourceNumbers',
);

/** The numbers of a request context's canonical JSON, once per context object (a trajectory's moves share it). */
const contextNumbers = objectMemo((context: Record<string, unknown>): readonly string[] =>
  extractNumbers(canonicalJson(context)),
);

/**
 * Unicode code points, so that Chinese and emoji count one each (a surrogate pair is one, a lone surrogate
 * one, as iterating the string counts them), without an array of the text's characters.
 */
function codePointLength(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        index++;
      }
    }
  }
  return length;
}

/** A check's banned terms in lower case, once per check object (harnesses are treated as immutable). */
const lowerTerms = objectMemo((check: { terms: readonly string[] }): readonly string[] =>
  check.terms.map((term) => term.toLowerCase()),
);

/** A skills part's kind of each skill id, once per part object. */
const skillKinds = objectMemo(
  (skills: Harness['skills']): ReadonlyMap<string, string> =>
    new Map(skills.items.map((skill) => [skill.id, skill.kind])),
);

/**
 * Whether a hook runs on a step: it is enabled, at the step's stage, and, when it is scoped to tools, the
 * step's call is to one of them.
 *
 * @example
 * hookRunsOn({ ...hook, stage: 'pre_tool', tools: ['reset_password'] }, { stage: 'pre_tool', call: { name: 'get_user', arguments: '{}' } }) // false
 */
export function hookRunsOn(hook: Hook, step: Pick<HookStep, 'stage' | 'call'>): boolean {
  if (!hook.enabled || hook.stage !== step.stage) return false;
  if (hook.tools === undefined) return true;
  return step.call !== undefined && hook.tools.includes(step.call.name);
}

/** The checks whose verdict reads the check and the step's text alone: `runCheck` keeps their verdicts. */
const textOnlyChecks: ReadonlySet<HookCheck['type']> = new Set(['banned_terms', 'regex', 'json_shape']);

/**
 * A check's content as a number, once per check object: the key of its verdicts (`textVerdicts`). Two check
 * objects with the same content share verdicts (a variant's hooks are often new objects around the same checks).
 */
const checkNumber = objectMemo((check: HookCheck): number => checkContentNumber(canonicalJson(check)));
const checkContentNumber = textNumbering(1 << 20, 'hook-engine.checkNumbers');

function runCheck(
  check: HookCheck,
  step: HookStep,
  harness: Harness,
  hookChecks: HookCheckRegistry,
): Failure | undefined {
  if (!textOnlyChecks.has(check.type)) return runStepCheck(check, step, harness, hookChecks);
  // A text check decides the same on the same text wherever it is met: an example and each of its variants
  // (whose relabel left most replies as they were) and every walk of each are checked once per text.
  const text = step.text ?? '';
  const key = `${checkNumber(check)}\u0000${text}`;
  const known = textVerdicts.get(key);
  if (known !== undefined) return known ?? undefined;
  textCheckRuns.count++;
  const failure = runStepCheck(check, step, harness, hookChecks);
  textVerdicts.set(key, failure ? Object.freeze(failure) : null);
  return failure;
}
const textCheckRuns = { count: 0 };
/**
 * How many times this process has run a text check (`banned_terms`, `regex`, `json_shape`) on a text, rather
 * than read its verdict (tests count the work of the hook checks with it).
 *
 * @example
 * const before = hookTextCheckRuns(); evaluateHook(hook, step, harness); hookTextCheckRuns() - before // 0 or 1
 */
export function hookTextCheckRuns(): number {
  return textCheckRuns.count;
}
// Pure function of content across runs: a text check's failure (null: it passes), by check content and text.
const textVerdicts = new BoundedCache<string, Failure | null>(
  4 << 20,
  (key, failure) => 2 * key.length + 64 + (failure ? 2 * failure.reason.length + 256 : 0),
  'hook-engine.textVerdicts',
);

function runStepCheck(
  check: HookCheck,
  step: HookStep,
  harness: Harness,
  hookChecks: HookCheckRegistry,
): Failure | undefined {
  const text = step.text ?? '';
  switch (check.type) {
    case 'banned_terms': {
      const haystack = check.caseSensitive ? text : text.toLowerCase();
      const terms = check.caseSensitive ? check.terms : lowerTerms(check);
      const found = check.terms.filter((_, index) => haystack.includes(terms[index] as string));
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
      const compiled = compileLinearPattern(check.pattern, check.flags);
      if (!compiled.ok)
        throw new HarnessAugmentError(`pattern /${check.pattern}/ is refused: ${compiled.reason}`, {
          issues: [{ code: 'invalid_regex', path: ['check', 'pattern'], message: compiled.reason }],
        });
      const match = compiled.pattern.firstMatch(text);
      if (check.mode === 'must' && match === undefined)
        return {
          reason: `does not match /${check.pattern}/`,
          details: { pattern: check.pattern, match: '' },
        };
      if (check.mode === 'must_not' && match !== undefined)
        return {
          reason: `matches /${check.pattern}/ at "${match}"`,
          details: { pattern: check.pattern, match },
        };
      return undefined;
    }
    case 'skill_loaded': {
      const loaded = check.scope === 'turn' ? step.loadedSkills?.turn : step.loadedSkills?.conversation;
      const when = check.scope === 'turn' ? 'in this turn' : 'yet';
      if (check.skill !== undefined)
        return (loaded ?? []).includes(check.skill)
          ? undefined
          : {
              reason: `skill "${check.skill}" was not loaded ${when}`,
              details: { kind: check.kind, skill: check.skill },
            };
      const kinds = skillKinds(harness.skills);
      const ok = (loaded ?? []).some((id) => check.kind === 'any' || kinds.get(id) === check.kind);
      const what = check.kind === 'any' ? 'skill' : `${check.kind} skill`;
      return ok
        ? undefined
        : { reason: `no ${what} was loaded ${when}`, details: { kind: check.kind, skill: '' } };
    }
    case 'custom': {
      const registered = hookChecks.get(check.name);
      if (!registered)
        throw new HarnessAugmentError(`hook check "${check.name}" is not registered`, {
          issues: [
            {
              code: 'unknown_hook_check',
              path: ['check', 'name'],
              message: `no custom hook check "${check.name}" is registered`,
            },
          ],
        });
      return registered.run(step, customParams(registered, check.params), harness);
    }
    case 'tool_arguments': {
      const call = step.call;
      if (!call) return undefined;
      const tool = offeredTool(harness, call.name);
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
        if (source === 'context') {
          for (const number of contextNumbers(step.context ?? {})) allowed.add(number);
          continue;
        }
        const texts = source === 'tool_results' ? (step.toolResults ?? []) : (step.userMessages ?? []);
        for (const sourceText of texts) for (const number of numbersIn(sourceText)) allowed.add(number);
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
 * Evaluates one hook on one step (whether it runs there at all is `hookRunsOn`'s question). The feedback
 * is rendered only for `retry` hooks, over `{ hook, reason, attempt, maxRetries, ...details }`. Custom
 * checks are looked up in `hookChecks`; an unregistered one throws a HarnessAugmentError.
 *
 * @example
 * evaluateHook(bannedTermsHook, { stage: 'pre_reply', text: 'The best price!' }, harness)
 * // { pass: false, hook: 'no_absolute_claims', reason: 'uses banned term(s): best', details: { found: ['best'], … }, feedback: '…' }
 */
export function evaluateHook(
  hook: Hook,
  step: HookStep,
  harness: Harness,
  hookChecks: HookCheckRegistry = noHookChecks,
  /** The attempt, when the caller counts it apart from `step` (the step a custom check reads holds it). */
  attempt?: number,
): HookOutcome {
  // Only a custom check reads the step as a whole: the others are given it as it is (no copy a hook).
  const checked = attempt !== undefined && hook.check.type === 'custom' ? { ...step, attempt } : step;
  const failure = runCheck(hook.check, checked, harness, hookChecks);
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
      attempt: attempt ?? step.attempt ?? 1,
      maxRetries: hook.onFail.maxRetries,
    });
  }
  return outcome;
}

/**
 * Runs the hooks that run on the step, in harness order, and returns the first failure, or undefined when
 * all pass. For the full decision (retry budget, block, fallback) use `decideHooks`.
 *
 * @example
 * const outcome = runHooks(harness, { stage: 'pre_reply', text: reply, loadedSkills, toolResults, userMessages });
 */
export function runHooks(
  harness: Harness,
  step: HookStep,
  hookChecks: HookCheckRegistry = noHookChecks,
): HookOutcome | undefined {
  for (const hook of harness.hooks.items) {
    if (!hookRunsOn(hook, step)) continue;
    const outcome = evaluateHook(hook, step, harness, hookChecks);
    if (!outcome.pass) return outcome;
  }
  return undefined;
}

// Registered custom hook checks: a named function with its stages, the variables its feedback may read and
// the tools or skills its params name, for what the declarative checks cannot say. The registry is explicit
// data passed to the harness check, the validator and the runtime, never filled on import.
import type { z } from 'zod';
import type { HookStep } from './hook-step.js';
import { HarnessAugmentError, type JsonPath } from './issues.js';
import type { Harness, HookStage } from './schema.js';

/** What a failing check reports: a plain English reason and the values its feedback template may read. */
export interface HookCheckFailure {
  reason: string;
  details: Record<string, unknown>;
}

/** A tool or skill that a custom check's params name: the string at `path` (below `params`) is the whole name. */
export interface HookCheckMention {
  kind: 'tool' | 'skill';
  path: JsonPath;
}

/** What a custom hook check's author writes: its name, stages, detail variables, zod params and `run`. */
export interface CustomHookCheckSpec<Schema extends z.ZodType = z.ZodType<Record<string, unknown>>> {
  /** The name a hook gives as `check: { type: custom, name }`. */
  name: string;
  /** Stages the check means something at; a hook at another stage is refused at load. */
  stages: readonly HookStage[];
  /** The detail names every failure provides, and so what its feedback template may read besides the common ones. */
  variables: readonly string[];
  /** Optional schema of `params`; bad params are an issue at load, with their path. */
  params?: Schema;
  /** The tools and skills its params name, so that renames follow them and no operator drops them. */
  mentions?(params: z.output<Schema>): readonly HookCheckMention[];
  /** Returns a failure, or undefined when the step passes. Must be pure and deterministic. */
  run(step: HookStep, params: z.output<Schema>, harness: Harness): HookCheckFailure | undefined;
}

/** A custom hook check, as `defineHookCheck` makes it from a `CustomHookCheckSpec`. */
export interface CustomHookCheck<Schema extends z.ZodType = z.ZodType> extends CustomHookCheckSpec<Schema> {
  readonly kind: 'hook_check';
}

/** The custom checks a harness may use, by name. */
export interface HookCheckRegistry {
  readonly checks: readonly CustomHookCheck[];
  get(name: string): CustomHookCheck | undefined;
}

const nameRule = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * Declares a custom hook check.
 *
 * @example
 * const ticketOpen = defineHookCheck({
 *   name: 'ticket_open', stages: ['pre_tool'], variables: ['ticket'],
 *   run: (step) => (/"status":"closed"/.test(step.call?.arguments ?? '') ? { reason: 'the ticket is closed', details: { ticket: 'closed' } } : undefined),
 * });
 */
export function defineHookCheck<Schema extends z.ZodType = z.ZodType<Record<string, unknown>>>(
  spec: CustomHookCheckSpec<Schema>,
): CustomHookCheck<Schema> {
  if (!nameRule.test(spec.name))
    throw new HarnessAugmentError(
      `hook check name "${spec.name}" must start with a letter or underscore and hold only A-Z, 0-9, _ . -`,
      { kind: 'usage' },
    );
  if (spec.stages.length === 0)
    throw new HarnessAugmentError(`hook check "${spec.name}" must declare at least one stage`, {
      kind: 'usage',
    });
  return Object.freeze({ ...spec, kind: 'hook_check' as const });
}

/**
 * Builds the registry of custom hook checks; two checks with the same name are a configuration error.
 *
 * @example
 * const hookChecks = createHookCheckRegistry([ticketOpen]);
 * validateTrajectory(line, harness, { hookChecks });
 */
export function createHookCheckRegistry(checks: readonly CustomHookCheck[] = []): HookCheckRegistry {
  const byName = new Map<string, CustomHookCheck>();
  for (const check of checks) {
    if (byName.has(check.name))
      throw new HarnessAugmentError(`hook check "${check.name}" is registered twice`, { kind: 'usage' });
    byName.set(check.name, check);
  }
  return Object.freeze({
    checks: [...checks],
    get: (name: string) => byName.get(name),
  });
}

/**
 * The registry used when none is given: it holds no custom check.
 *
 * @example
 * validateTrajectory(trajectory, harness, { hookChecks: noHookChecks });
 */
export const noHookChecks: HookCheckRegistry = createHookCheckRegistry([]);

/**
 * The params of a custom check as its schema parses them (defaults applied); the raw params without a schema.
 * Throws a HarnessAugmentError when they do not parse (the harness check reports that at load).
 *
 * @example
 * customParams(check, hook.check.params)
 */
export function customParams(check: CustomHookCheck, params: unknown): unknown {
  if (!check.params) return params ?? {};
  const parsed = check.params.safeParse(params ?? {});
  if (!parsed.success)
    throw new HarnessAugmentError(`params of hook check "${check.name}" are invalid`, {
      issues: parsed.error.issues.map((issue) => ({
        code: issue.code,
        path: issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment)),
        message: issue.message,
      })),
    });
  return parsed.data;
}

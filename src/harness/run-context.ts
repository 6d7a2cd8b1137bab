// What one run holds: the custom hook checks its harness names, and the memos of what it derived (the facts
// of its trajectories under its harnesses, …). A run context is created once by whoever starts the run
// (`augment`, a variant pool, the pipeline, the CLI), passed explicitly, and dropped with the run: nothing
// a run derives outlives it in module state. A memo's kind is declared by the module that fills it
// (`defineRunMemo`), so this module knows no layer above it.
import type { HookCheckRegistry } from './hook-checks.js';

/** A kind of per-run memo: its name (for reading a run) and how a run makes its empty one. */
export interface RunMemoKind<T> {
  readonly name: string;
  readonly create: () => T;
}

/** One run's state, passed explicitly from where the run starts to everything that derives facts in it. */
export interface RunContext {
  /** The custom hook checks the run's harnesses name (undefined: none). */
  readonly hookChecks: HookCheckRegistry | undefined;
  /** The run's memo of `kind`: made empty on first use, then the same object until the run is dropped. */
  memo<T>(kind: RunMemoKind<T>): T;
  /** The names of the memos made so far, in the order they were made: what the run holds. */
  memoNames(): readonly string[];
}

/**
 * Declares a kind of per-run memo. The kind is a constant of the module that fills it; every run holds
 * its own memo of it.
 *
 * @example
 * const factsMemo = defineRunMemo('trajectory facts', () => new WeakMap<object, string>());
 * factsMemo.name === 'trajectory facts'
 */
export function defineRunMemo<T>(name: string, create: () => T): RunMemoKind<T> {
  return Object.freeze({ name, create });
}

/** How a run context is made: the custom hook checks its harnesses name. */
export interface RunContextOptions {
  /** The custom hook checks the run's harnesses name (default: none). */
  hookChecks?: HookCheckRegistry | undefined;
}

/**
 * Creates the context of one run.
 *
 * @example
 * const run = createRunContext({ hookChecks });
 * validationFacts(trajectory, harness, run);
 */
export function createRunContext(options: RunContextOptions = {}): RunContext {
  const memos = new Map<RunMemoKind<unknown>, unknown>();
  return Object.freeze({
    hookChecks: options.hookChecks,
    memo<T>(kind: RunMemoKind<T>): T {
      if (!memos.has(kind)) memos.set(kind, kind.create());
      return memos.get(kind) as T;
    },
    memoNames: () => [...memos.keys()].map((kind) => kind.name),
  });
}

/**
 * The run context given, or — for a caller that names only hook checks (an operator written before run
 * contexts) — a context of its own for this one call: the answers are the same, only nothing is shared.
 *
 * @example
 * const run = runContextOf(input.run, input.hookChecks);
 */
export function runContextOf(
  run: RunContext | undefined,
  hookChecks?: HookCheckRegistry | undefined,
): RunContext {
  return run ?? createRunContext({ hookChecks });
}

/**
 * A run context, or one made for this call from the hook checks a caller written before run contexts names
 * instead (the answers are the same; nothing is shared).
 *
 * @example
 * validationFacts(trajectory, harness, asRunContext(hookChecks));
 */
export function asRunContext(scope: RunContext | HookCheckRegistry | undefined): RunContext {
  return scope && 'memo' in scope ? scope : createRunContext({ hookChecks: scope });
}

/**
 * The run's hook checks as the options of a function that takes `{ hookChecks? }` (`validateTrajectory`,
 * `renameSymbols`, `safeParseHarness`, …).
 *
 * @example
 * validateTrajectory(line, harness, hookCheckOptions(run));
 */
export function hookCheckOptions(run: RunContext): { hookChecks?: HookCheckRegistry | undefined } {
  return { hookChecks: run.hookChecks };
}

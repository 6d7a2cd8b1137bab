// What one run holds: the custom hook checks its harnesses name, and the memos of what it derived (the facts
// of its trajectories under its harnesses, …). A run context is created once by whoever starts the run
// (`augment`, a variant pool, the pipeline, the CLI), passed explicitly, and dropped with the run: nothing
// a run derives outlives it in module state. A memo's kind is declared by the module that fills it
// (`defineRunMemo`, `defineRunCache`), so this module knows no layer above it. What can grow with the
// run's work is held in the run's caches, which share one byte budget (`memoryBytes`): least recently used
// entries go first, and a miss derives the value again, so no answer depends on the budget.

import { BoundedCache } from './bounded-cache.js';
import type { HookCheckRegistry } from './hook-checks.js';
import { HarnessAugmentError } from './issues.js';

/** A kind of per-run memo: its name (for reading a run) and how a run makes its empty one. */
export interface RunMemoKind<T> {
  readonly name: string;
  readonly create: () => T;
}

/** A kind of per-run cache: its name, and the estimated bytes of one entry's value. */
export interface RunCacheKind<V> {
  readonly name: string;
  readonly sizeOf: (value: V) => number;
}

/** One kind's entries in the run's byte-bounded cache: an entry may be gone at any lookup (derive it again). */
export interface RunCache<V> {
  get(key: string): V | undefined;
  /** Stores the value and returns it (an entry larger than the whole budget is not kept). */
  set(key: string, value: V): V;
}

/** What a run holds, and how many bytes of its budget its caches take. */
export interface RunMemoryReport {
  /** The bytes the run's caches may hold, by estimate (`memoryBytes`). */
  budgetBytes: number;
  /** The bytes they hold now, by estimate. */
  heldBytes: number;
  /** Their entries now. */
  entries: number;
  /** Lookups of the run's caches that found an entry, and those that did not. */
  lookups: { hits: number; misses: number };
  /** The run's memos (`defineRunMemo`), in the order they were made. */
  memos: string[];
  /** The run's caches (`defineRunCache`), in the order they were first used. */
  caches: string[];
}

/** One run's state, passed explicitly from where the run starts to everything that derives facts in it. */
export interface RunContext {
  /** The custom hook checks the run's harnesses name (undefined: none). */
  readonly hookChecks: HookCheckRegistry | undefined;
  /** The run's memo of `kind`: made empty on first use, then the same object until the run is dropped. */
  memo<T>(kind: RunMemoKind<T>): T;
  /** The run's cache of `kind`: its entries share the run's byte budget with every other kind's. */
  cache<V>(kind: RunCacheKind<V>): RunCache<V>;
  /** The names of the memos made so far, in the order they were made: what the run holds. */
  memoNames(): readonly string[];
  /** What the run holds now, and how many bytes against its budget. */
  memoryReport(): RunMemoryReport;
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

/**
 * Declares a kind of per-run cache: what a run derives that can grow with its work (facts of trajectories
 * the run keeps, …). `sizeOf` estimates an entry's bytes; entries of every kind share the run's budget.
 *
 * @example
 * const facts = defineRunCache<Fact>('facts', (fact) => fact.bytes);
 * run.cache(facts).get(key) ?? run.cache(facts).set(key, derive());
 */
export function defineRunCache<V>(name: string, sizeOf: (value: V) => number): RunCacheKind<V> {
  return Object.freeze({ name, sizeOf });
}

/**
 * The bytes a run's caches may hold by default (by estimate): room for the facts of the examples in flight
 * (one live-stream example's, over 8 variants, take about 1 MB), small beside a run's heap.
 *
 * @example
 * createRunContext().memoryReport().budgetBytes === defaultRunMemoryBytes
 */
export const defaultRunMemoryBytes = 32 * 1024 * 1024;

/** How a run context is made: the custom hook checks its harnesses name, and its memory budget. */
export interface RunContextOptions {
  /** The custom hook checks the run's harnesses name (default: none). */
  hookChecks?: HookCheckRegistry | undefined;
  /**
   * The bytes the run's caches may hold, by estimate (default `defaultRunMemoryBytes`, 32 MiB). A smaller
   * budget derives more again, never answers differently; 0 keeps nothing.
   */
  memoryBytes?: number | undefined;
}

interface CachedEntry {
  readonly kind: RunCacheKind<unknown>;
  readonly value: unknown;
}

/**
 * Creates the context of one run.
 *
 * @example
 * const run = createRunContext({ hookChecks, memoryBytes: 64 << 20 });
 * validationFacts(trajectory, harness, run);
 * run.memoryReport().heldBytes <= run.memoryReport().budgetBytes
 */
export function createRunContext(options: RunContextOptions = {}): RunContext {
  const budget = options.memoryBytes ?? defaultRunMemoryBytes;
  if (!Number.isSafeInteger(budget) || budget < 0)
    throw new HarnessAugmentError(`memoryBytes must be a whole number of bytes ≥ 0, got ${String(budget)}`, {
      kind: 'usage',
    });
  const memos = new Map<RunMemoKind<unknown>, unknown>();
  // One cache for every kind, so that the kinds share the budget and the least recently used entry of any
  // kind goes first; a kind's keys are prefixed with its name.
  const entries = new BoundedCache<string, CachedEntry>(
    budget,
    (key, entry) => 2 * key.length + entry.kind.sizeOf(entry.value) + 48,
  );
  const caches = new Map<RunCacheKind<unknown>, RunCache<unknown>>();
  const cacheOf = <V>(kind: RunCacheKind<V>): RunCache<V> => {
    let view = caches.get(kind as RunCacheKind<unknown>);
    if (!view) {
      const prefix = `${kind.name}\u0000`;
      const general = kind as RunCacheKind<unknown>;
      view = {
        get: (key) => entries.get(prefix + key)?.value,
        set: (key, value) => entries.set(prefix + key, { kind: general, value }).value,
      };
      caches.set(general, view);
    }
    return view as RunCache<V>;
  };
  return Object.freeze({
    hookChecks: options.hookChecks,
    memo<T>(kind: RunMemoKind<T>): T {
      if (!memos.has(kind)) memos.set(kind, kind.create());
      return memos.get(kind) as T;
    },
    cache: cacheOf,
    memoNames: () => [...memos.keys()].map((kind) => kind.name),
    memoryReport: () => ({
      budgetBytes: entries.budget,
      heldBytes: entries.size,
      entries: entries.entryCount,
      lookups: entries.lookups,
      memos: [...memos.keys()].map((kind) => kind.name),
      caches: [...caches.keys()].map((kind) => kind.name),
    }),
  });
}

/**
 * The run context given, or — for a caller that names only hook checks (an operator written before run
 * contexts) — a context of its own for this one call: the answers are the same, only nothing is shared.
 * Given both, the hook checks must be the run's: a run derives every fact under its own.
 *
 * @example
 * const run = runContextOf(input.run, input.hookChecks);
 */
export function runContextOf(
  run: RunContext | undefined,
  hookChecks?: HookCheckRegistry | undefined,
): RunContext {
  if (!run) return createRunContext({ hookChecks });
  assertRunHookChecks(run, hookChecks);
  return run;
}

/**
 * Throws a usage error when a caller names both a run and hook checks that are not the run's.
 *
 * @example
 * assertRunHookChecks(options.run, options.hookChecks);
 */
export function assertRunHookChecks(run: RunContext, hookChecks: HookCheckRegistry | undefined): void {
  if (hookChecks !== undefined && hookChecks !== run.hookChecks)
    throw new HarnessAugmentError(
      "both a run and hook checks were given, and the hook checks are not the run's: give the run alone (createRunContext({ hookChecks }))",
      { kind: 'usage' },
    );
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

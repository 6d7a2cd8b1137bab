// The worker-thread side of the augment thread pool (`hsa augment --workers N`, the pipeline's
// `augment.threads`): loads the harness, policy, operators and hook checks of a setup once per thread, then
// augments one example (the variant indexes asked for) per task, exactly as the main thread would.
// A thread builds the pool entries it owns (a run of indexes, named by each task) and asks the main thread
// (over the task's port) for any other an example reaches.
import type { MessagePort } from 'node:worker_threads';
import { builtinOperators } from '../../../perturbations/index.js';
import {
  type AugmentOptions,
  augmentExample,
  type ExampleResult,
  variantPoolFor,
} from '../../augment/augment.js';
import { type AugmentRun, createAugmentRun } from '../../augment/augment-run.js';
import { loadOperatorModules, registryOf } from '../../augment/operator-modules.js';
import { resolvePolicy } from '../../augment/resolve-policy.js';
import type { PoolEntryData, VariantPool } from '../../augment/variant-pool.js';
import { loadHookChecks } from '../../harness/hook-check-module.js';
import { loadHarnessFile } from '../../harness/parse-harness.js';
import type { Harness } from '../../harness/schema.js';
import type { Trajectory } from '../../trajectory/schema.js';
import { requestEntry } from './entry-requests.js';
import { adoptSentValidation, type SentValidation } from './sent-validation.js';
import { createPartSender, type SentResult } from './shared-parts.js';

/**
 * What every task of one run shares: what decides a row, as files and values a thread can load again
 * (the CLI's options or a pipeline configuration give it).
 */
export interface AugmentThreadSetup {
  harnessFile: string;
  /** A preset name or a policy file (default `hat`). */
  policy?: string;
  /** Overrides the policy's severity: a level, a number in [0, 1] or its text. */
  severity?: string | number;
  /** A module of custom hook checks (absolute path). */
  hookChecks?: string;
  /** Modules of third-party operators (absolute paths): every thread loads them, as the main thread does. */
  operators?: string[];
  seed: string;
  variants: number;
  /** Entries of the variant pool (0: every variant built for its example). */
  variantPool: number;
}

/**
 * A task: augment one example at the given variant indexes (default 0 … variants - 1). The thread builds
 * the pool entries of `owns` (`[from, to)`, the same for every task of a thread) and asks for any other on
 * `port` (./entry-requests.ts).
 */
export interface AugmentWorkerTask {
  setup: AugmentThreadSetup;
  trajectory: Trajectory;
  variantIndexes?: number[];
  owns?: [number, number];
  /** The main thread's validation of the example (./sent-validation.ts). */
  validation?: SentValidation;
  port?: MessagePort;
}

/** A task's answer: its results in order, and the entries this thread has built so far. */
export interface AugmentWorkerDone {
  results: SentResult[];
  built: number;
}

interface Loaded {
  harness: Harness;
  options: Pick<AugmentOptions, 'plan' | 'seed' | 'severity'> & { run: AugmentRun };
  /** This thread's view of the run's pool: the entries it built or was given. */
  pool: VariantPool | undefined;
}

let loadedKey: string | undefined;
let loaded: Promise<Loaded> | undefined;
/** The port of the example task running now (a thread runs one task at a time). */
let currentPort: MessagePort | undefined;
/** The entries this thread owns, `[from, to)` (every task of the thread names the same). */
let owned: [number, number] = [0, Number.POSITIVE_INFINITY];
/** Entries this thread has built. */
let built = 0;
/** Rows go back with the harnesses and relabels this thread has sent before named by key. */
const sender = createPartSender();

/** An entry this thread does not own comes from the main thread; one it owns is built here. */
function entrySource(index: number): Promise<PoolEntryData> | undefined {
  if ((index >= owned[0] && index < owned[1]) || !currentPort) {
    built++;
    return undefined;
  }
  return requestEntry(currentPort, index);
}

async function load(setup: AugmentThreadSetup): Promise<Loaded> {
  const hookChecks = await loadHookChecks(setup.hookChecks);
  const harness = await loadHarnessFile(setup.harnessFile, { hookChecks });
  // The operators are imported statically (a dynamic import of a .js path does not resolve to its .ts
  // source inside a worker thread under tsx).
  const { plan, severity } = await resolvePolicy(setup.policy ?? 'hat', {
    registry: registryOf(builtinOperators, await loadOperatorModules(setup.operators)),
    ...(setup.severity !== undefined ? { severity: setup.severity } : {}),
  });
  // The thread's run: its facts are shared by the pool's entries and every task the thread runs.
  const run = createAugmentRun(harness, { hookChecks });
  const options = { plan, seed: setup.seed, severity, run };
  return {
    harness,
    options,
    pool: variantPoolFor(harness, { ...options, pool: { size: setup.variantPool } }, entrySource),
  };
}

/**
 * Runs one task in a worker thread: the results of its variant indexes, in order.
 *
 * @example
 * await pool.run({ setup, trajectory, owns: [0, 128], port }, { transferList: [port] }) // { results: [{ row }, …], built }
 */
export default async function augmentInWorker(task: AugmentWorkerTask): Promise<AugmentWorkerDone> {
  const key = JSON.stringify(task.setup);
  if (key !== loadedKey || !loaded) {
    loadedKey = key;
    loaded = load(task.setup);
  }
  const { harness, options, pool } = await loaded;
  if (task.owns) owned = task.owns;
  adoptSentValidation(task.trajectory, task.validation, harness, options.run);
  currentPort = task.port;
  try {
    const indexes = task.variantIndexes ?? Array.from({ length: task.setup.variants }, (_, index) => index);
    const results: ExampleResult[] = [];
    for (const variantIndex of indexes)
      results.push(
        await (pool
          ? pool.augment(task.trajectory, variantIndex)
          : augmentExample(harness, task.trajectory, variantIndex, options)),
      );
    return { results: results.map((result) => sender.send(result)), built };
  } finally {
    currentPort = undefined;
    task.port?.close();
  }
}

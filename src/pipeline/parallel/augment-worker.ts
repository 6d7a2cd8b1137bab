// The worker-thread side of the augment thread pool (`hsa augment --workers N`, the pipeline's
// `augment.threads`): loads the harness, policy, operators and hook checks of a setup once per thread, then
// augments one example (the variant indexes asked for) per task, exactly as the main thread would.
// Pool entries are never built twice: a thread builds those the main thread asks of it (`build` tasks)
// and asks the main thread (over the task's port) for any other an example reaches.
import type { MessagePort } from 'node:worker_threads';
import { builtinOperators } from '../../../perturbations/index.js';
import {
  type AugmentOptions,
  augmentExample,
  type ExampleResult,
  variantPoolFor,
} from '../../augment/augment.js';
import { loadOperatorModules, registryOf } from '../../augment/operator-modules.js';
import { resolvePolicy } from '../../augment/resolve-policy.js';
import type { PoolEntryData, VariantPool } from '../../augment/variant-pool.js';
import { loadHookChecks } from '../../harness/hook-check-module.js';
import { loadHarnessFile } from '../../harness/parse-harness.js';
import type { Harness } from '../../harness/schema.js';
import type { Trajectory } from '../../trajectory/schema.js';
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
 * A task: augment one example at the given variant indexes (default 0 … variants - 1), asking for the
 * pool entries this thread lacks on `port` (a message `{ need: index }`, answered with the entry's data);
 * or build one pool entry (`build`: its index) for the main thread to hand on.
 */
export type AugmentWorkerTask =
  | { setup: AugmentThreadSetup; trajectory: Trajectory; variantIndexes?: number[]; port?: MessagePort }
  | { setup: AugmentThreadSetup; build: number };

interface Loaded {
  harness: Harness;
  options: Pick<AugmentOptions, 'plan' | 'seed' | 'severity' | 'hookChecks'>;
  /** This thread's view of the run's pool: the entries it built or was given. */
  pool: VariantPool | undefined;
}

let loadedKey: string | undefined;
let loaded: Promise<Loaded> | undefined;
/** The port of the example task running now (a thread runs one task at a time). */
let currentPort: MessagePort | undefined;
/** Rows go back with the harnesses and relabels this thread has sent before named by key. */
const sender = createPartSender();

/** Asks the main thread for an entry over the running task's port. */
function askMainThread(index: number): Promise<PoolEntryData> | undefined {
  const port = currentPort;
  if (!port) return undefined;
  return new Promise((resolve, reject) => {
    const onMessage = (reply: { index: number; entry?: PoolEntryData; error?: string }) => {
      if (reply.index !== index) return;
      port.off('message', onMessage);
      if (reply.entry) resolve(reply.entry);
      else reject(new Error(reply.error ?? `the main thread has no pool entry ${index}`));
    };
    port.on('message', onMessage);
    port.postMessage({ need: index });
  });
}

async function load(setup: AugmentThreadSetup): Promise<Loaded> {
  const hookChecks = await loadHookChecks(setup.hookChecks);
  const harness = await loadHarnessFile(setup.harnessFile, hookChecks ? { hookChecks } : {});
  // The operators are imported statically (a dynamic import of a .js path does not resolve to its .ts
  // source inside a worker thread under tsx).
  const { plan, severity } = await resolvePolicy(setup.policy ?? 'hat', {
    registry: registryOf(builtinOperators, await loadOperatorModules(setup.operators)),
    ...(setup.severity !== undefined ? { severity: setup.severity } : {}),
  });
  const options = { plan, seed: setup.seed, severity, ...(hookChecks ? { hookChecks } : {}) };
  return {
    harness,
    options,
    pool: variantPoolFor(harness, { ...options, pool: { size: setup.variantPool } }, askMainThread),
  };
}

/**
 * Runs one task in a worker thread. An example's task gives the results of its variant indexes, in
 * order; a build task gives the entry.
 *
 * @example
 * await pool.run({ setup, trajectory, port }, { transferList: [port] }) // [{ row }, { reject }, …]
 */
export default async function augmentInWorker(
  task: AugmentWorkerTask,
): Promise<SentResult[] | PoolEntryData> {
  const key = JSON.stringify(task.setup);
  if (key !== loadedKey || !loaded) {
    loadedKey = key;
    loaded = load(task.setup);
  }
  const { harness, options, pool } = await loaded;
  if ('build' in task) {
    if (!pool) throw new Error('a pool entry was asked of a run without a variant pool');
    return pool.entryData(task.build);
  }
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
    return results.map((result) => sender.send(result));
  } finally {
    currentPort = undefined;
    task.port?.close();
  }
}

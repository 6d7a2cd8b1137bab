// How many worker threads augment a run's SFT units (`augment.threads`), and the setup they load. A thread
// rebuilds what decides a variant from files: the harness, the policy, the built-in operators plus the
// config's `operators` modules, and its `hookChecks` module. A run whose dependencies hold something a
// thread cannot rebuild (an operator or a hook check given in code, a paraphraser for `regenerate`
// operators: a function) augments on the main thread; asked for threads explicitly, it is a usage error.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Operator } from '../../augment/operator.js';
import { loadOperatorModules } from '../../augment/operator-modules.js';
import { loadHookChecks } from '../../harness/hook-check-module.js';
import type { HookCheckRegistry } from '../../harness/hook-checks.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import type { PipelineConfig } from '../config.js';
import type { PipelineDependencies, SftThreads } from '../spec.js';

export type { SftThreads } from '../spec.js';

/**
 * The thread count a config asks for: a number, or `auto` (every core but one, at least 1).
 *
 * @example
 * requestedThreads('auto') // 15 on a 16-core machine
 */
export function requestedThreads(threads: PipelineConfig['augment']['threads']): number {
  return threads === 'auto' ? Math.max(1, availableParallelism() - 1) : threads;
}

const sameList = <T>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((item, index) => item === b[index]);

/** Why a thread could not rebuild the run's operators and checks, or undefined when it can. */
async function notRebuildable(
  config: PipelineConfig,
  dependencies: PipelineDependencies,
): Promise<string | undefined> {
  if (dependencies.regenerate)
    return 'the paraphraser of `regenerate` operators (teacher.paraphraser) is a model call of the main thread';
  const builtins: readonly Operator[] = (await import('../../../perturbations/index.js')).builtinOperators;
  const loaded = (await loadOperatorModules(config.operators, 'operators')).flatMap(
    (entry) => entry.operators,
  );
  const byId = (list: readonly Operator[]) =>
    [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const own = byId(dependencies.registry.list());
  const rebuilt = byId([...builtins, ...loaded]);
  if (!sameList(own, rebuilt)) {
    const ids = (list: readonly Operator[]) => list.map((operator) => operator.id).join(', ');
    const extra = own.filter((operator) => !rebuilt.includes(operator));
    const missing = rebuilt.filter((operator) => !own.includes(operator));
    return `the run's operator registry is not the built-ins plus the config's \`operators\` modules (${[
      ...(extra.length > 0 ? [`given in code: ${ids(extra)}`] : []),
      ...(missing.length > 0 ? [`left out: ${ids(missing)}`] : []),
    ].join('; ')}); name the operators' modules under \`operators\``;
  }
  const checks = (registry: HookCheckRegistry | undefined) => registry?.checks ?? [];
  if (!sameList(checks(dependencies.hookChecks), checks(await loadHookChecks(config.hookChecks))))
    return "the run's hook checks are not those of the config's `hookChecks` module; name their module there";
  return undefined;
}

/**
 * The threads a run's SFT stage augments in, or undefined for the main thread (1 thread, or a run a thread
 * cannot rebuild under `auto`). An explicit count above 1 for such a run is a usage error saying why.
 *
 * @example
 * const threads = await sftThreads(config, dependencies); // { count: 4, setup } | undefined
 */
export async function sftThreads(
  config: PipelineConfig,
  dependencies: PipelineDependencies,
): Promise<SftThreads | undefined> {
  const count = requestedThreads(config.augment.threads);
  if (count <= 1 || config.augment.variants === 0) return undefined;
  const why = await notRebuildable(config, dependencies);
  if (why) {
    if (config.augment.threads === 'auto') return undefined;
    throw new HarnessAugmentError(
      `augment.threads: ${count} worker threads cannot augment this run: ${why}; or set augment.threads: 1`,
      {
        kind: 'usage',
        issues: [{ code: 'threads_cannot_rebuild', path: ['augment', 'threads'], message: why }],
      },
    );
  }
  return {
    count,
    setup: {
      harnessFile: resolve(config.harness),
      policy: config.augment.policy,
      seed: String(config.seed),
      variants: config.augment.variants,
      variantPool: config.augment.pool,
      ...(config.augment.severity !== undefined ? { severity: config.augment.severity } : {}),
      ...(config.hookChecks !== undefined ? { hookChecks: resolve(config.hookChecks) } : {}),
      ...(config.operators !== undefined
        ? { operators: config.operators.map((module) => resolve(module)) }
        : {}),
    },
  };
}

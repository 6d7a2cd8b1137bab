// Turns a reset's harness choice into the harness an episode runs under: the base harness, a certified
// variant sampled from a named policy exactly as the simulator samples it, or a variant the client built
// itself (checked here, so that a bad one is a 400 listing its issues rather than a crash mid-episode).
import { type AugmentRun, augmentRunOf } from '../../augment/augment-run.js';
import type { Plan } from '../../augment/plan.js';
import { type PolicyInput, severityValue } from '../../augment/policy.js';
import { createRegistry, type Registry } from '../../augment/registry.js';
import { resolvePolicy } from '../../augment/resolve-policy.js';
import { runnablePlan } from '../../augment/runnable-plan.js';
import { safeParseHarness } from '../../harness/parse-harness.js';
import type { Harness } from '../../harness/schema.js';
import type { Relabel } from '../../trajectory/relabel.js';
import type { ScenarioEpisode } from '../scenario.js';
import { variantFor } from '../sim/simulate.js';
import { EnvError } from './env-error.js';
import type { HarnessChoice } from './schemas.js';

/** The harness an episode runs under, and how its vocabulary maps back to the base one. */
export interface ChosenHarness {
  harness: Harness;
  /** Maps base names to the variant's; absent for the base harness. */
  relabel?: Relabel;
  variantId?: string;
  /** Why no certified variant was found (the episode then runs under the base harness). */
  augmentSkipped?: string;
  /** Operators of the asked policy left out because they change what the hooks enforce (`runnablePlan`). */
  leftOut?: string[];
}

/**
 * Named policies compiled on first use and kept. The registry defaults to the built-in operators, loaded
 * only when a client first asks for an augmented episode.
 *
 * @example
 * const plans = createPlanCache(presets);
 * const { plan, severity } = await plans.get('hat');
 */
export function createPlanCache(policies: Readonly<Record<string, PolicyInput>>, registry?: Registry) {
  const compiled = new Map<string, Promise<{ plan: Plan; severity: number }>>();
  let registryPromise: Promise<Registry> | undefined;
  const loadRegistry = () => {
    registryPromise ??= registry
      ? Promise.resolve(registry)
      : import('../../../perturbations/index.js').then(({ builtinOperators }) =>
          createRegistry(builtinOperators),
        );
    return registryPromise;
  };
  return {
    names: () => Object.keys(policies).sort(),
    get(name: string): Promise<{ plan: Plan; severity: number }> {
      if (!Object.hasOwn(policies, name))
        return Promise.reject(
          new EnvError(
            400,
            'invalid_request',
            `unknown augmentation policy "${name}"; known: ${Object.keys(policies).sort().join(', ')}`,
          ),
        );
      let entry = compiled.get(name);
      if (!entry) {
        entry = loadRegistry().then(async (loaded) => {
          const { plan, severity } = await resolvePolicy(name, { registry: loaded, presets: policies });
          return { plan, severity };
        });
        compiled.set(name, entry);
      }
      return entry;
    },
  };
}

export type PlanCache = ReturnType<typeof createPlanCache>;

export interface ChooseHarnessOptions {
  base: Harness;
  /** The episode; its gold trajectory is what a sampled variant must carry over. */
  episode: ScenarioEpisode;
  /** The run seed (variants draw from `${seed}/${gold.id}/${variantIndex}`, as in `hsa sim run`). */
  seed: string;
  plans: PlanCache;
  /**
   * The run the service started over `base` (`createAugmentRun`): its hook checks, and the facts its
   * variants derive; default: one of its own for this call, with no hook checks.
   */
  run?: AugmentRun | undefined;
}

/**
 * Resolves a reset's harness choice.
 *
 * @example
 * const chosen = await chooseHarness({ augment: 'hat' }, { base, episode, seed: '7', plans });
 */
export async function chooseHarness(
  choice: HarnessChoice | undefined,
  options: ChooseHarnessOptions,
): Promise<ChosenHarness> {
  if (choice === undefined || choice === 'original') return { harness: options.base };
  const run = augmentRunOf(options.base, { run: options.run });
  if ('variant' in choice) {
    const parsed = safeParseHarness(choice.variant.harness, { hookChecks: run.hookChecks });
    if (!parsed.success)
      throw new EnvError(
        400,
        'invalid_harness',
        `harness.variant.harness is not a valid harness (${parsed.issues.length} issue(s)); first: ${parsed.issues[0]!.message}`,
        {
          issues: parsed.issues.map((issue) => ({
            ...issue,
            path: ['harness', 'variant', 'harness', ...issue.path],
          })),
        },
      );
    return {
      harness: parsed.data,
      relabel: (choice.variant.relabel as Relabel | undefined) ?? { steps: [] },
    };
  }
  const { plan, severity: policySeverity } = await options.plans.get(choice.augment);
  const severity =
    choice.severity === undefined
      ? policySeverity
      : severityValue(choice.severity as Parameters<typeof severityValue>[0]);
  const { leftOut } = runnablePlan(plan);
  const noted = leftOut.length > 0 ? { leftOut } : {};
  const found = await variantFor(
    options.base,
    options.episode,
    { plan, severity },
    options.seed,
    run,
    choice.variant_index ?? 0,
  );
  if ('harness' in found)
    return { harness: found.harness, relabel: found.relabel, variantId: found.id, ...noted };
  return { harness: options.base, augmentSkipped: found.skipped, ...noted };
}

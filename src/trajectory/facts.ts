// The facts of a trajectory under a harness, computed once: where the forward relabel takes it (its
// re-derivation under the harness: the trajectory, its issues, its hook decisions) and its validation there.
// Every check of an augmentation step asks for the same facts — the operator's own certificate (`certifies`),
// the hook facts of the hook operators, the next step's example, the row's certificate — so each is derived
// once per (trajectory object, relabel content, harness content) in a run and read after that.
//
// Facts belong to the run (`RunContext`, whose hook checks they were derived with) and are held in its
// byte-bounded cache, by the trajectory object's number in the run: a run that keeps a trajectory (a bench
// item's gold, an environment's episode) holds no more of its facts than the run's budget, and all of them
// go when the run does. A fact the cache let go is derived again, the same. Trajectories and harnesses are
// treated as immutable here, as everywhere in the library (operators return new objects); a cached fact is
// shared, never to be mutated.
import { contentHash, harnessRest, writtenPartHash } from '../harness/hash.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import {
  asRunContext,
  defineRunCache,
  defineRunMemo,
  hookCheckOptions,
  type RunContext,
} from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { textNumbering } from '../harness/text-numbers.js';
import { forwardTrajectory, type Relabel } from './relabel.js';
import type { Trajectory } from './schema.js';
import {
  type Rederived,
  rederiveTrajectory,
  type TrajectoryValidation,
  validateTrajectory,
  validationAtParse,
} from './validate-trajectory.js';
import { forwardByProof, type WalkProof } from './walk-by-proof.js';

/** What a certificate reads of a validation. */
export type ValidationFacts = Pick<TrajectoryValidation, 'valid' | 'issues' | 'decisions' | 'trajectory'>;

/**
 * A number for each trajectory object the run derived a fact of: the facts' keys begin with it. A WeakMap
 * of the run's: it holds a number per trajectory, and lets the trajectory go when the run drops it.
 */
const trajectoryNumbers = defineRunMemo('trajectory numbers', () => ({
  numbers: new WeakMap<Trajectory, number>(),
  next: 0,
}));
/** The run's forward facts, by `<trajectory number>|<harness key>|<relabel key>`. */
const forwardCache = defineRunCache<Rederived>('trajectory forward facts', (fact) =>
  factBytes(fact.trajectory, fact.issues.length, fact.decisions.length),
);
/** The run's validation facts, by `<trajectory number>|<harness key>`. */
const validationCache = defineRunCache<ValidationFacts>('trajectory validation facts', (fact) =>
  factBytes(fact.trajectory, fact.issues.length, fact.decisions.length),
);

/**
 * A fact's bytes by estimate: its trajectory's texts (UTF-16) and a share for each message, offered tool,
 * issue and decision. A trajectory shared by two facts is counted in each.
 */
function factBytes(trajectory: Trajectory | undefined, issues: number, decisions: number): number {
  let bytes = 256 * (issues + decisions) + 128;
  if (!trajectory) return bytes;
  bytes += 512 * (trajectory.tools?.length ?? 0);
  for (const message of trajectory.messages) {
    bytes += 96 + 2 * (message.content?.length ?? 0);
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? [])
        bytes += 96 + 2 * (call.function.name.length + call.function.arguments.length);
  }
  return bytes;
}
// Pure function of content across runs: a relabel's key is its steps as JSON.
const relabelKeys = new WeakMap<Relabel, string>();

/** The key of a forward fact: the trajectory's number in the run, the harness and the relabel by content. */
const forwardKey = (trajectory: number, relabel: Relabel, harness: Harness) =>
  `${trajectory}|${keyNumber(harnessKey(harness))}|${keyNumber(relabelKey(relabel))}`;

/** The trajectory object's number in the run (a new one the first time the run sees it). */
function numberOf(trajectory: Trajectory, run: RunContext): number {
  const memo = run.memo(trajectoryNumbers);
  let number = memo.numbers.get(trajectory);
  if (number === undefined) {
    number = memo.next++;
    memo.numbers.set(trajectory, number);
  }
  return number;
}

/**
 * The harness by content as written. The content hash sorts keys, but a trajectory's derived content does
 * not: the offered tools keep their schemas' property order, so two harnesses that differ in property
 * order alone (`tools/reorder-properties`) derive different trajectories and must not share facts. Each
 * part is keyed by its JSON as written, once per part object; the key is the same in every thread.
 *
 * @example
 * writtenHarnessKey(harness) === writtenHarnessKey(structuredClone(harness))
 */
export function writtenHarnessKey(harness: Harness): string {
  // Once per harness object (harnesses are immutable): every fact of a row asks for its variant's key.
  let content = contentKeys.get(harness);
  if (content === undefined) {
    // The parts as written, and the rest by content: the same harnesses as the harness hash with the
    // parts as written tells apart, without writing and hashing the whole harness (a step's harness on the
    // way to a variant needs no hash of its own).
    const written = partNames.map((part) => writtenPartHash(harness[part])).join(',');
    content = `${contentHash(harnessRest(harness))}|${written}`;
    contentKeys.set(harness, content);
  }
  return content;
}

/** The harness by content as written (the run's facts share its one set of hook checks). */
const harnessKey = writtenHarnessKey;
// Pure function of content across runs: a harness object's written-content key.
const contentKeys = new WeakMap<Harness, string>();
const partNames = ['skills', 'hooks', 'prompt', 'tools'] as const;

// A number for a content key (a harness's, a relabel's) in the facts' keys.
const keyNumber = textNumbering(2 << 20, 'facts.keyNumbers');

/** A relabel by content: relabels are small plain data, built fresh by `composeRelabels`. */
function relabelKey(relabel: Relabel): string {
  let key = relabelKeys.get(relabel);
  if (key === undefined) {
    key = JSON.stringify(relabel.steps);
    relabelKeys.set(relabel, key);
  }
  return key;
}

/**
 * `forwardTrajectory(trajectory, relabel, harness)`, derived once per (trajectory object, relabel content,
 * harness content) in the run; later calls return the same result. The result is also the trajectory's
 * validation under the harness (`validationFacts` reads it): its derived content is the harness's by
 * construction.
 *
 * @example
 * const moved = forwardFacts(trajectory, relabel, variant, run); moved.issues.length === 0
 */
export function forwardFacts(
  trajectory: Trajectory,
  relabel: Relabel,
  harness: Harness,
  run: RunContext,
  /**
   * A walk proof of the harness and relabel (`proveWalk`, by content): where it covers the trajectory, the
   * fact is told from the trajectory's walk under the proof's base instead of walked (`forwardByProof`).
   */
  proof?: WalkProof,
): Rederived {
  const facts = run.cache(forwardCache);
  const key = forwardKey(numberOf(trajectory, run), relabel, harness);
  let forward = facts.get(key);
  // Told by the proof wherever it covers the trajectory, even when a walk without the proof made the fact
  // first: whether a row's certificate says so depends on the row alone, not on the order in which the run
  // met its facts (threads, shards). A fact the proof declined says so, and is not offered to it again.
  const asked =
    forward?.byProof === undefined &&
    proof !== undefined &&
    proof.harness === harness &&
    relabelKey(proof.relabel) === relabelKey(relabel);
  const told = asked ? forwardByProof(trajectory, proof, validationFacts(trajectory, proof.base, run)) : {};
  const proven = told.fact;
  if (proven || !forward) {
    // Where the proof declined after relabelling, the walk starts from its messages (`forwardTrajectory`'s).
    forward =
      proven ??
      (told.moved
        ? rederiveTrajectory({ ...trajectory, messages: told.moved }, harness, hookCheckOptions(run))
        : forwardTrajectory(trajectory, relabel, harness, hookCheckOptions(run)));
    if (asked && !proven) forward.byProof = false;
    facts.set(key, forward);
    rememberValidation(forward.trajectory, harness, forward, run);
  } else if (asked) forward.byProof = false;
  return forward;
}

/**
 * The forward fact if it was derived already (by `forwardFacts` or `rememberForward`), else undefined:
 * nothing is computed.
 *
 * @example
 * knownForward(example, step.relabel, step.harness)?.issues.length === 0
 */
export function knownForward(
  trajectory: Trajectory,
  relabel: Relabel,
  harness: Harness,
  run: RunContext,
): Rederived | undefined {
  const number = run.memo(trajectoryNumbers).numbers.get(trajectory);
  if (number === undefined) return undefined;
  return run.cache(forwardCache).get(forwardKey(number, relabel, harness));
}

/**
 * Records `forward` as the forward fact of (trajectory, relabel, harness), for a caller that derived it
 * another way with the same result (a chain of steps: see `applyPlanSteps`).
 *
 * @example
 * rememberForward(original, composeRelabels(...relabels), harness, lastStep);
 */
export function rememberForward(
  trajectory: Trajectory,
  relabel: Relabel,
  harness: Harness,
  forward: Rederived,
  run: RunContext,
): void {
  run.cache(forwardCache).set(forwardKey(numberOf(trajectory, run), relabel, harness), forward);
  rememberValidation(forward.trajectory, harness, forward, run);
}

/**
 * Records what re-deriving `trajectory` under `harness` found (`forwardTrajectory`'s issues and hook
 * decisions): its derived content is the harness's by construction, so this is its validation there, and a
 * later `validationFacts` of it reads this instead of walking it again.
 *
 * @example
 * const forward = forwardTrajectory(original, relabel, harness); rememberValidation(forward.trajectory, harness, forward);
 */
export function rememberValidation(
  trajectory: Trajectory,
  harness: Harness,
  derived: Pick<Rederived, 'issues' | 'decisions'>,
  run: RunContext,
): void {
  run.cache(validationCache).set(`${numberOf(trajectory, run)}|${keyNumber(harnessKey(harness))}`, {
    valid: derived.issues.length === 0,
    issues: derived.issues,
    decisions: derived.decisions,
    trajectory,
  });
}

/**
 * `validateTrajectory(trajectory, harness, { hookChecks })` of a parsed trajectory under the run's hook
 * checks, walked once per (trajectory object, harness content) in the run, or read from its forward fact.
 * Do not mutate it. Given hook checks instead of a run (or nothing), it validates with them and shares
 * nothing.
 *
 * @example
 * const validation = validationFacts(trajectory, harness, run); if (validation.valid) use(validation.decisions);
 */
export function validationFacts(
  trajectory: Trajectory,
  harness: Harness,
  scope?: RunContext | HookCheckRegistry,
): ValidationFacts {
  const run = asRunContext(scope);
  const facts = run.cache(validationCache);
  const harnessContent = harnessKey(harness);
  const key = `${numberOf(trajectory, run)}|${keyNumber(harnessContent)}`;
  let validation = facts.get(key);
  if (!validation) {
    // A trajectory `validateTrajectory` parsed carries that validation: read, not walked again, when it ran
    // under the same harness content and hook checks (the input of a run, validated on the way in).
    const parsed = validationAtParse(trajectory);
    const validated =
      parsed && parsed.hookChecks === run.hookChecks && harnessKey(parsed.harness) === harnessContent
        ? parsed.validation
        : validateTrajectory(trajectory, harness, hookCheckOptions(run));
    validation = {
      valid: validated.valid,
      issues: validated.issues,
      decisions: validated.decisions,
      ...(validated.trajectory ? { trajectory: validated.trajectory } : {}),
    };
    facts.set(key, validation);
  }
  return validation;
}

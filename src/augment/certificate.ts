// The certificate: proof that a (variant, rewritten trajectory) pair preserves the task. The rewritten
// trajectory validates under the variant, hooks decide as they did, the inverse restores the original
// byte for byte, the variant keeps the protected content of the texts it rewrites and the meaning facts of
// their lists. A pair without a certificate is never emitted.
import { hashHarness } from '../harness/hash.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { Issue } from '../harness/issues.js';
import { sharedChatCompletionTools } from '../harness/offered-tools.js';
import { hookCheckOptions, type RunContext, runContextOf } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { type ValidationFacts, validationFacts } from '../trajectory/facts.js';
import { inverseSteps, type Relabel } from '../trajectory/relabel.js';
import { sameJson } from '../trajectory/same-json.js';
import type { Trajectory } from '../trajectory/schema.js';
import {
  derivedContent,
  type HookDecision,
  type Rederived,
  rederiveTrajectory,
} from '../trajectory/validate-trajectory.js';
import { type ContentPreservation, checkContentPreservation } from './content-preservation.js';
import { checksByProof, type EntryProof } from './entry-proof.js';
import { checkNewNames } from './name-meaning.js';

/**
 * The proof that a (variant, rewritten trajectory) pair keeps the task: each check, the harness hashes and
 * what failed.
 */
export interface Certificate {
  certified: boolean;
  baseHash: string;
  variantHash: string;
  checks: {
    /** Every tool exists, arguments validate, skills exist, derived content is the variant's. */
    validUnderVariant: boolean;
    /** Every hook decides as it did on the original (inserted episodes aside). */
    hooksAgree: boolean;
    /** The inverse relabel restores the original byte for byte. */
    inverseExact: boolean;
    /**
     * The variant keeps the protected content of the base (numbers, code, paths, URLs, quoted strings,
     * the order of ordered lists), identifiers aside (`checkContentPreservation`).
     */
    contentKept: boolean;
    /**
     * The variant keeps the meaning facts of every part it changed: rules that lean on the rule before them
     * stay right after it, enumerations keep their conjunctions, numbered procedures stay marked as ordered
     * (`compareListMeaning`), and every new name is opaque or faithful (`checkNewNames`).
     */
    meaningKept: boolean;
  };
  /** What the content-preservation check counted in the base. */
  content: ContentPreservation['checked'];
  /** What failed, when not certified. */
  issues: Issue[];
  /**
   * For a row drawn from a pool entry: which checks the entry proved once (`atEntry`: the content of each
   * part the row's variant holds as the entry does, its new names) and which ran for this row (`perRow`: the
   * example's validity and hook decisions, the inverse, the content of the parts its own steps changed).
   */
  proof?: CertificateProof;
}

/** Where a pool row's checks were answered (`Certificate.proof`). */
export interface CertificateProof {
  /** The entry's seed. */
  entry: string;
  atEntry: string[];
  perRow: string[];
}

/**
 * What `certify` compares: the base and variant harnesses, the original and rewritten trajectories, and the
 * relabel between them.
 */
export interface CertifyInput {
  base: Harness;
  variant: Harness;
  original: Trajectory;
  rewritten: Trajectory;
  relabel: Relabel;
  /** The run the check belongs to: its hook checks, and the facts it shares with the run's other checks. */
  run?: RunContext;
  /** The custom hook checks the harnesses name, when no `run` is given (default: none). */
  hookChecks?: HookCheckRegistry | undefined;
  /**
   * What the forward relabel derived when it made `rewritten` under `variant` (its issues and hook
   * decisions): the certificate uses them instead of validating `rewritten` again. Its derived content is
   * the variant's by construction, so the two agree; leave it out to validate from scratch.
   */
  forward?: Pick<Rederived, 'issues' | 'decisions' | 'byProof'>;
  /**
   * The proof of the pool entry the variant was drawn from (`proveEntry`): the parts the variant holds as the
   * entry does take their content and name checks from it, and the certificate says which did.
   */
  proof?: EntryProof;
}

/** The checks of the walk under the variant. */
const walkChecks = ['validUnderVariant', 'hooksAgree'];

/** Hook decisions without their positions, leaving out those on inserted (injected) turns. */
function decisionTrace(trajectory: Trajectory, decisions: readonly HookDecision[]): string[] {
  return decisions
    .filter((decision) => {
      const index = decision.path[1];
      const message = typeof index === 'number' ? trajectory.messages[index] : undefined;
      return !(message && 'hsa' in message && message.hsa?.injected);
    })
    .map((decision) => `${decision.stage}:${decision.failed ?? 'pass'}`);
}

/**
 * Checks a rewritten trajectory against its variant and its original. The validations it compares are
 * facts of the trajectory objects (`validationFacts`): trajectories are treated as immutable, so copy one
 * before changing it.
 *
 * @example
 * const certificate = certify({ base, variant, original, rewritten, relabel });
 * if (!certificate.certified) rejects.push(certificate.issues);
 */
export function certify(input: CertifyInput): Certificate {
  const { certified, checks, content, issues, proof } = certifiedChecks(input);
  return {
    certified,
    baseHash: hashHarness(input.base).harness,
    variantHash: hashHarness(input.variant).harness,
    checks,
    content,
    issues,
    ...(proof ? { proof } : {}),
  };
}

/**
 * The verdict of `certify` without the two harness hashes a row records: what an operator's own check of a
 * candidate reads (`certifies`), so that a harness on the way to a variant is never hashed whole.
 *
 * @example
 * if (!certifiedChecks({ base, variant, original, rewritten, relabel }).certified) return { skip: '…' };
 */
export function certifiedChecks(input: CertifyInput): Omit<Certificate, 'baseHash' | 'variantHash'> {
  const { base, variant, original, rewritten, relabel } = input;
  const issues: Issue[] = [];
  const run = runContextOf(input.run, input.hookChecks);
  const options = hookCheckOptions(run);
  const underVariant = input.forward
    ? {
        valid: input.forward.issues.length === 0,
        issues: input.forward.issues,
        trajectory: rewritten,
        decisions: input.forward.decisions,
      }
    : validationFacts(rewritten, variant, run);
  issues.push(
    ...underVariant.issues.map((issue) => ({ ...issue, message: `under the variant: ${issue.message}` })),
  );
  // Facts, derived once per (trajectory, harness content): the same original is certified against many
  // variants, and an operator's own certificate and the row's read the same ones.
  const underBase = validationFacts(original, base, run);
  if (!underBase.valid) {
    issues.push(
      ...underBase.issues.map((issue) => ({
        ...issue,
        message: `the original is invalid: ${issue.message}`,
      })),
    );
  }

  // A walk told from the original's (`forwardByProof`) holds its very decisions: the same trace.
  const sameWalk = underVariant.decisions === underBase.decisions && underVariant.trajectory !== undefined;
  const before = sameWalk ? [] : decisionTrace(original, underBase.decisions);
  const after =
    sameWalk || !underVariant.trajectory
      ? []
      : decisionTrace(underVariant.trajectory, underVariant.decisions);
  const hooksAgree = underVariant.valid && (sameWalk || before.join('\n') === after.join('\n'));
  if (underVariant.valid && !hooksAgree) {
    const at = before.findIndex((decision, index) => decision !== after[index]);
    issues.push({
      code: 'hook_decisions_changed',
      path: ['messages'],
      message: `hook decision ${at} changed: ${before[at] ?? '(none)'} became ${after[at] ?? '(none)'}`,
    });
  }

  let inverseExact = false;
  if (underVariant.trajectory) {
    // The inverse relabel, then the base's derived content: decided from the original's walk where that
    // proves it (`restoresWithoutWalk`), else by walking. Byte for byte as JSON, decided without writing
    // either text (the restored copy shares most values).
    const moved = inverseSteps(underVariant.trajectory, relabel);
    inverseExact =
      restoresWithoutWalk(moved, base, original, underBase) ||
      sameJson(rederiveTrajectory(moved, base, options).trajectory, original);
    if (!inverseExact) {
      issues.push({
        code: 'inverse_not_exact',
        path: [],
        message: 'the inverse relabel does not restore the original exactly',
      });
    }
  }
  // The walk under the variant, told from the original's walk under the base by the entry's walk proof.
  const walkByProof = input.proof?.walk !== undefined && input.forward?.byProof === input.proof.walk;
  // The parts the variant holds as its pool entry does are the entry's proof; the others (and every part of
  // a variant without an entry) are checked here, by content (a step's check is its certificate's).
  const proven = input.proof ? checksByProof(input.proof, base, variant, relabel) : undefined;
  const content = proven?.content ?? checkContentPreservation(base, variant, relabel);
  issues.push(...content.issues);
  // New names are opaque or faithful (`nameJudge`).
  const names = proven?.names ?? checkNewNames(base, variant, relabel);
  issues.push(...names);
  const checks = {
    validUnderVariant: underVariant.valid,
    hooksAgree,
    inverseExact,
    contentKept: content.kept,
    meaningKept: content.meaningKept && names.length === 0,
  };
  return {
    certified:
      checks.validUnderVariant &&
      checks.hooksAgree &&
      checks.inverseExact &&
      checks.contentKept &&
      checks.meaningKept &&
      underBase.valid,
    checks,
    content: content.checked,
    issues,
    ...(proven && input.proof
      ? {
          proof: {
            entry: input.proof.entry,
            atEntry: [...(walkByProof ? walkChecks : []), ...proven.atEntry],
            perRow: [...(walkByProof ? [] : walkChecks), 'inverseExact', ...proven.perRow],
          },
        }
      : {}),
  };
}

/**
 * Whether re-deriving `moved` (the inverse steps' output) under the base gives the original, told from the
 * original's own walk under the base instead of a walk of `moved`. A walk reads the content of the messages
 * it derives only to compare it (`derivedContent`): which messages it derives and what it writes there
 * depend on the other fields alone, and it writes nothing else but `tools`. So if `moved` equals the
 * original everywhere but in the contents the original's walk derives, its walk is the original's and
 * writes there what the original holds (the original is valid: it holds what it derives); the result is
 * then `moved` with those contents (and `tools`) set as the walk sets them — exactly what is compared here.
 * False when that cannot be told (the original invalid or walked as another object, a derived content not
 * a string, any other difference): the caller walks then, so the verdict is always the walk's.
 */
function restoresWithoutWalk(
  moved: Trajectory,
  base: Harness,
  original: Trajectory,
  underBase: ValidationFacts,
): boolean {
  if (!underBase.valid || underBase.trajectory !== original) return false;
  const derived = derivedContent(underBase.decisions);
  if (!derived || moved.messages.length !== original.messages.length) return false;
  const messages = [...moved.messages];
  for (const index of derived.keys()) {
    const message = messages[index];
    const source = original.messages[index];
    if (!message || !source || typeof message.content !== 'string') return false;
    messages[index] = { ...message, content: source.content } as typeof message;
  }
  const restored: Trajectory = { ...moved, messages };
  if (restored.tools) restored.tools = offeredAsOriginal(base, original);
  return sameJson(restored, original);
}

/**
 * The base's offered tools as the walk writes them, as the original's own array where the two are the same
 * JSON (told once per original and base: an example is restored once for each of its variants), so that
 * the comparison finds them equal without a look inside.
 */
function offeredAsOriginal(base: Harness, original: Trajectory): Trajectory['tools'] {
  const offered = sharedChatCompletionTools(base);
  const tools = original.tools;
  if (!tools) return offered;
  let known = offeredSame.get(tools);
  if (known?.offered !== offered) {
    known = { offered, same: sameJson(offered, tools) };
    offeredSame.set(tools, known);
  }
  return known.same ? tools : offered;
}
// Pure function of content across runs: whether an offered-tools array is the JSON of a harness's tools.
const offeredSame = new WeakMap<object, { offered: object; same: boolean }>();

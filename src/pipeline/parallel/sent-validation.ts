// An example crosses to an augment thread with the validation the main thread made of it on the way in:
// the thread's copy is a fresh object, so without it the thread's certificate facts (`validationFacts`)
// walked the input again. The thread adopts it only under the harness it was made under (the same text
// as written) and the same presence of custom hook checks (a thread loads the setup's module).
import type { RunContext } from '../../harness/run-context.js';
import type { Harness } from '../../harness/schema.js';
import { writtenHarnessKey } from '../../trajectory/facts.js';
import type { Trajectory } from '../../trajectory/schema.js';
import {
  adoptValidationAtParse,
  type DerivedMessages,
  derivedContent,
  type TrajectoryValidation,
  validationAtParse,
} from '../../trajectory/validate-trajectory.js';

/** A validation as sent: without the trajectory (it is the task's), with the harness it was made under. */
export interface SentValidation {
  harness: string;
  hookChecks: boolean;
  validation: Omit<TrajectoryValidation, 'trajectory'>;
  /** What its walk derived (`derivedContent`): the thread's copy of the decisions does not carry it. */
  derived?: DerivedMessages;
}

/** The main thread's validation of `trajectory` to send with it, if it made one. */
export function sentValidation(trajectory: Trajectory): SentValidation | undefined {
  const parsed = validationAtParse(trajectory);
  if (!parsed) return undefined;
  const { trajectory: _trajectory, ...validation } = parsed.validation;
  const derived = derivedContent(validation.decisions);
  return {
    harness: writtenHarnessKey(parsed.harness),
    hookChecks: parsed.hookChecks !== undefined,
    validation,
    ...(derived ? { derived } : {}),
  };
}

/** In the thread: records the sent validation as its copy's, when it was made under this harness. */
export function adoptSentValidation(
  trajectory: Trajectory,
  sent: SentValidation | undefined,
  harness: Harness,
  run: RunContext,
): boolean {
  if (
    !sent ||
    sent.harness !== writtenHarnessKey(harness) ||
    sent.hookChecks !== (run.hookChecks !== undefined)
  )
    return false;
  adoptValidationAtParse(trajectory, harness, run.hookChecks, sent.validation, sent.derived);
  return true;
}

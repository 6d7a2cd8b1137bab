// harness-augment/testing: the operator law suite and random harnesses for property tests.
// fast-check is a peer dependency of this subpath.

export {
  checkOperatorLaws,
  type LawCase,
  type OperatorLawOptions,
  type OperatorLawReport,
  partsTouchedBy,
  randomLawCase,
} from '../kit/laws.js';
export {
  type Agent,
  type AgentInput,
  arbTrajectoryVariant,
  arbVariant,
  buildVariant,
  type Comparator,
  checkHarnessInvariance,
  type HarnessVariant,
  harnessInvarianceProperty,
  type InvarianceCase,
  type InvarianceCounterexample,
  InvarianceError,
  type InvarianceOptions,
  sameToolCalls,
  toolCallsOf,
  type VariantOptions,
  type VariantStep,
} from './invariance.js';

// harness-augment/testing: the operator and scenario law suites and random harnesses for property tests.
// fast-check is a peer dependency of this subpath.

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
export {
  checkOperatorLaws,
  type LawCase,
  type OperatorLawOptions,
  type OperatorLawReport,
  partsTouchedBy,
  randomLawCase,
} from './operator-laws.js';
export {
  checkScenarioLaws,
  type ScenarioLaw,
  type ScenarioLawOptions,
  type ScenarioLawReport,
  scenarioLaws,
} from './scenario-laws.js';

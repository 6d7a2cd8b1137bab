// harness-augment/testing: the operator law suite and random harnesses for property tests.
// fast-check is a peer dependency of this subpath.
export {
  checkOperatorLaws,
  type LawCase,
  type OperatorLawOptions,
  type OperatorLawReport,
  partsTouchedBy,
  randomLawCase,
} from './operator-laws.js';

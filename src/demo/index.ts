// harness-augment/demo: `hsa demo` from code — fixed-harness vs harness-augmented learners on a bundled domain
// or your own harness, its Markdown and HTML reports, and the embedded learner it trains (a pointer-generator
// over names trained on a TRL export: a stand-in, not a language model). See docs/demo.md. Curated by hand.

export {
  type DecisionAccuracy,
  decisionAccuracy,
  Learner,
  learnerChatModel,
  type MessageDecider,
  uniformChooser,
} from '../learner/learner.js';
export {
  readTrlRows,
  type TrainingReport,
  type TrainLearnerOptions,
  trainLearner,
} from '../learner/train-learner.js';
export { renderDemoHtml, renderDemoMarkdown } from './report.js';
export {
  type DemoOptions,
  type DemoResult,
  type DemoSizes,
  defaultDemoSizes,
  runDemo,
} from './run-demo.js';
export type { DemoSummary } from './summary.js';

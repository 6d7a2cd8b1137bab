// harness-augment/bench: the variant benchmark — items, the benchmark under N harness variants with rewritten
// answer keys, a real next version beside the synthetic ones, scoring after the inverse mapping, bootstrap
// intervals, and the Markdown and self-contained HTML reports. See docs/bench.md. Curated by hand.

export { type AnswerRowOptions, answerBenchRow } from './answer-row.js';
export { type BootstrapEstimate, bootstrapGroup } from './bootstrap.js';
export {
  type BenchInput,
  type BenchReject,
  type GenerateBenchOptions,
  generateBench,
  type Holdout,
} from './generate.js';
export { type BenchItemRecord, parseBenchItem, readBenchItems } from './items.js';
export {
  describeNextVersion,
  type NextVersionEdit,
  type NextVersionOptions,
  type NextVersionOutcome,
  nextVersionBench,
} from './next-version.js';
export {
  type NextVersionScores,
  type ScoresWithNextVersion,
  scoreNextVersion,
} from './next-version-scores.js';
export { renderHtmlReport, renderMarkdownReport, reportChartCount, writeReport } from './report.js';
export {
  type BenchItem,
  BenchItemSchema,
  type BenchRow,
  BenchRowSchema,
  type Criterion,
  criteria,
  type Expectations,
  ExpectationsSchema,
  type ExpectedCall,
  type Prediction,
  PredictionSchema,
} from './schema.js';
export {
  type Comparison,
  expectationsAsPredictions,
  type GroupScores,
  type RowResult,
  type RowScore,
  type ScoreBenchOptions,
  type ScoresDocument,
  scoreBench,
  scoreRow,
} from './score.js';

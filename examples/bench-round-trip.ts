// A benchmark round trip: generate a variant benchmark from the fixture's items, score two predictors — one
// that follows the rewritten answer key (100%) and a brittle one that calls the base tool names whatever
// the variant — and write the Markdown and HTML report.
// Run: npx tsx examples/bench-round-trip.ts
import {
  builtinOperators,
  compilePolicy,
  createRegistry,
  loadHarnessFile,
  type Message,
  parsePolicy,
} from 'harness-augment';
import {
  type BenchRow,
  expectationsAsPredictions,
  generateBench,
  type Prediction,
  readBenchItems,
  scoreBench,
  writeReport,
} from 'harness-augment/bench';

const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
const items = [];
for await (const record of readBenchItems('fixtures/livestream/bench/items.jsonl')) {
  if ('item' in record) items.push(record.item);
  if (items.length === 24) break;
}
// One dimension per variant, so that the gap can be read per dimension.
const plan = compilePolicy(
  parsePolicy({
    choose: 1,
    dimensions: {
      tools: { operators: [{ op: 'tools/rename', params: { style: 'opaque' } }] },
      prompt: { operators: ['prompt/heading-style', 'prompt/reorder-sections'] },
      'skill-content': { operators: ['skill-content/preamble'] },
    },
  }),
  createRegistry(builtinOperators),
);
const rows: BenchRow[] = [];
for await (const row of generateBench(harness, items, { plan, variants: 3, seed: 'round-trip' }))
  rows.push(row);
console.log(`${rows.length} bench rows (${items.length} items × (original + 3 variants)), all certified`);

const perfect = expectationsAsPredictions(rows);
const perfectScores = scoreBench(rows, perfect, { seed: 1, resamples: 200 });
console.log(
  `answer-key predictor: original ${perfectScores.overall.criteria.overall.original?.mean}, variants ${perfectScores.overall.criteria.overall.variants?.mean}`,
);

// A memorising model: it answers as under the base harness, whatever the variant calls the tools.
const baseAnswers = new Map<string, Message[]>();
for (const prediction of expectationsAsPredictions(rows.filter((row) => row.variantIndex === 0))) {
  baseAnswers.set(prediction.id.replace(/\/0$/, ''), prediction.output);
}
const brittle: Prediction[] = rows.map((row) => ({ id: row.id, output: baseAnswers.get(row.itemId) ?? [] }));
const brittleScores = scoreBench(rows, brittle, { seed: 1, resamples: 200 });
const gap = (dimension: string) => brittleScores.byDimension[dimension]?.criteria.overall.gap?.mean ?? 0;
console.log(
  `brittle predictor: overall gap ${brittleScores.overall.criteria.overall.gap?.mean?.toFixed(2)}; tools ${gap('tools').toFixed(2)}, prompt ${gap('prompt').toFixed(2)}, skill-content ${gap('skill-content').toFixed(2)}`,
);

const written = await writeReport(brittleScores, 'out/bench-report');
console.log(`report: ${written.markdown}, ${written.html}`);

// `npm run bench`: every goal's figure in one run, each as a ratio to its baseline measured in the same run
// (scripts/bench/goals.ts): tools-only against Hammer's own function-masking code on the same rows, `hat`
// against the I/O floor at 10k rows and at a user's first run (400 rows), the pipeline's wall time against
// a 50 ms endpoint, `npm start`'s CPU, `--workers N` against `--workers 1`. Then, unless BENCH_QUICK=1, the
// other figures: start-up, latency replay, simulate, shard processes, policies in process, peak RSS.
// Figures go to out/bench.json (BENCH_OUT) and the goals' table with the machine and its load to
// out/bench.md (beside it); BENCH_COMPARE=<old json> prints old → new for each goal's ratio. Times are CPU
// seconds unless marked wall. Timings are reported, never asserted: a benchmark decides nothing in the
// test suite.
//
// Knobs (environment): BENCH_QUICK=1 (the goals only, 2k rows at scale: a few minutes), BENCH_VARIANTS
// (default 8), BENCH_SCALE_ROWS (10000; 2000 quick), BENCH_FIRST_RUN_INPUTS (50), BENCH_PIPELINE_UNITS
// (200), BENCH_PIPELINE_THREADS (auto), BENCH_WORKERS (2), BENCH_WORKERS_INPUTS (100; 50 quick),
// BENCH_WORKERS_POLICY (hat), BENCH_EXAMPLES (50, the policies section), BENCH_RSS_INPUTS (1000,10000),
// BENCH_RSS_POLICY (hat), BENCH_PYTHON (python3), BENCH_BUDGET_SECONDS (420: the sections without a goal
// that would start later are left out; a goal's section past 540), BENCH_SKIP (a comma list of sections:
// masking, scale, first-run, pipeline, start, workers, startup, latency, simulate, shards, policies, memory).
//
// Child processes are timed by the CPU seconds the kernel counts for them (/proc/self/stat cutime + cstime,
// Linux), so their threads are included.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinOperators } from '../perturbations/index.js';
import { augment } from '../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../src/augment/policy.js';
import { presets } from '../src/augment/presets.js';
import { createRegistry } from '../src/augment/registry.js';
import { loadHarnessFile } from '../src/harness/parse-harness.js';
import { augmentChild, bundledAugmentChild, childCpu } from './bench/child-processes.js';
import { type BenchMachine, type GoalFigures, type GoalRow, goalRows, goalsMarkdown } from './bench/goals.js';
import { type HammerFigure, hammerMasking } from './bench/hammer-baseline.js';
// @ts-expect-error: plain JavaScript (it runs before anything compiles TypeScript), no declarations.
import { bundledEntry } from './start.mjs';
import { parseStages } from './start-stages.js';

const numberFrom = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const quick = process.env.BENCH_QUICK === '1';
const variants = numberFrom('BENCH_VARIANTS', 8);
const scaleRows = numberFrom('BENCH_SCALE_ROWS', quick ? 2000 : 10000);
const firstRunInputs = numberFrom('BENCH_FIRST_RUN_INPUTS', 50);
const pipelineUnits = numberFrom('BENCH_PIPELINE_UNITS', 200);
// Worker threads that augment the pipeline's units (`augment.threads`): a number or `auto`.
const pipelineThreads =
  process.env.BENCH_PIPELINE_THREADS === undefined || process.env.BENCH_PIPELINE_THREADS === 'auto'
    ? ('auto' as const)
    : Number(process.env.BENCH_PIPELINE_THREADS);
const workers = numberFrom('BENCH_WORKERS', 2);
const workersInputs = numberFrom('BENCH_WORKERS_INPUTS', quick ? 50 : 100);
const workersPolicy = process.env.BENCH_WORKERS_POLICY ?? 'hat';
const examples = numberFrom('BENCH_EXAMPLES', 50);
const rssInputs = (process.env.BENCH_RSS_INPUTS ?? '1000,10000').split(',').map(Number);
const rssPolicy = process.env.BENCH_RSS_POLICY ?? 'hat';
const python = process.env.BENCH_PYTHON ?? 'python3';
const outFile = process.env.BENCH_OUT ?? 'out/bench.json';
const goalSections = ['masking', 'scale', 'first-run', 'pipeline', 'start', 'workers'];
// The cheaper first: the run's budget may leave out the last.
const otherSections = ['startup', 'latency', 'simulate', 'shards', 'policies', 'memory'];
const skip = new Set([
  ...(process.env.BENCH_SKIP ?? '').split(',').filter(Boolean),
  ...(quick ? otherSections : []),
]);
const unknownSections = [...skip].filter(
  (name) => !goalSections.includes(name) && !otherSections.includes(name),
);
if (unknownSections.length > 0) {
  console.error(
    `BENCH_SKIP: no section ${unknownSections.join(', ')} (sections: ${[...goalSections, ...otherSections].join(', ')})`,
  );
  process.exit(2);
}
const fixture = 'fixtures/livestream/trajectories.jsonl';
const harnessFile = 'fixtures/livestream/harness.yaml';

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
const settings = {
  quick,
  variants,
  scaleRows,
  firstRunInputs,
  pipelineUnits,
  pipelineThreads,
  workers,
  workersInputs,
  workersPolicy,
  examples,
  rssInputs,
  rssPolicy,
  skipped: [...skip],
};
const startedAt = new Date();
const loadAtStart = loadavg()[0] ?? 0;
const runStarted = performance.now();
const results: Record<string, unknown> = { date: startedAt.toISOString(), settings };
const figures: GoalFigures = {};
const sectionWallSeconds: Record<string, number> = {};

const budgetSeconds = numberFrom('BENCH_BUDGET_SECONDS', 420);
const leftForTime: string[] = [];

/**
 * Runs a section unless BENCH_SKIP names it, and records its wall time. So that the whole run stays under
 * ten minutes on a loaded machine, a section without a goal does not start once the run has gone
 * BENCH_BUDGET_SECONDS, and a goal's section not once it has gone two minutes more.
 */
async function section(name: string, body: () => Promise<void>): Promise<void> {
  if (skip.has(name)) return;
  const limit = otherSections.includes(name) ? budgetSeconds : budgetSeconds + 120;
  if ((performance.now() - runStarted) / 1000 > limit) {
    leftForTime.push(name);
    console.log(`${name}: left out, the run is past ${limit} s (BENCH_BUDGET_SECONDS)`);
    return;
  }
  const started = performance.now();
  await body();
  sectionWallSeconds[name] = (performance.now() - started) / 1000;
}

const scaleInputs = Math.ceil(scaleRows / variants);
let hammer: HammerFigure | undefined;

await section('masking', async () => {
  // tools-only at the goals' size (bundled, as the CLI runs; the rows are serialised, not kept) against
  // Hammer's own masking code on the same inputs and copies per input. The rows as `hsa augment` writes
  // them by default (by reference: each variant harness once, to the sidecar); the same rows written
  // inline (every row holding its variant harness) are measured beside them.
  const job = ['--inputs', String(scaleInputs), '--policy', 'tools-only', '--variants', String(variants)];
  const toolsOnly = await augmentChild(
    [...job, '--by-reference', '--skip-digest'],
    await bundledAugmentChild(),
  );
  const inline = await augmentChild([...job, '--skip-digest'], await bundledAugmentChild());
  hammer = await hammerMasking({ fixture, inputs: scaleInputs, variants, folder: 'out/bench', python });
  const toolsOnlyRate = (toolsOnly.rows ?? 0) / (toolsOnly.cpuSeconds ?? Number.NaN);
  const inlineRate = (inline.rows ?? 0) / (inline.cpuSeconds ?? Number.NaN);
  const inlineBytesPerRow = (inline.bytes ?? 0) / (inline.rows || 1);
  figures.masking = {
    rows: toolsOnly.rows ?? 0,
    toolsOnlyRowsPerCpuSecond: toolsOnlyRate,
    toolsOnlyBytesPerCpuSecond: (toolsOnly.bytes ?? 0) / (toolsOnly.cpuSeconds ?? Number.NaN),
    hammerRows: hammer.rows,
    hammerRowsPerCpuSecond: hammer.rowsPerCpuSecond,
    hammerBytesPerCpuSecond: hammer.bytes / hammer.cpuSeconds,
    inlineRowsPerCpuSecond: inlineRate,
    inlineBytesPerRow,
  };
  results.masking = {
    toolsOnly: { ...toolsOnly, rowsPerCpuSecond: toolsOnlyRate },
    toolsOnlyInline: inline,
    hammer,
  };
  console.log(
    `tools-only at ${toolsOnly.rows} rows (${scaleInputs} inputs × ${variants}, bundled, by reference): ` +
      `${toolsOnlyRate.toFixed(0)} rows/CPU-s, ${((toolsOnly.bytes ?? 0) / (toolsOnly.rows || 1) / 1024).toFixed(1)} KB/row ` +
      `(inline: ${inlineRate.toFixed(0)} rows/CPU-s, ${(inlineBytesPerRow / 1024).toFixed(1)} KB/row); ` +
      `Hammer's masking (${hammer.commit.slice(0, 7)}, Python ${hammer.python}): ${hammer.rows} rows, ` +
      `${hammer.rowsPerCpuSecond.toFixed(0)} rows/CPU-s (${hammer.processCpuSeconds.toFixed(2)} CPU-s the whole ` +
      `process), ${(hammer.bytes / (hammer.rows || 1) / 1024).toFixed(1)} KB/row → ` +
      `${(toolsOnlyRate / hammer.rowsPerCpuSecond).toFixed(3)}×`,
  );
});

/** `hat` in a fresh bundled child over `inputs` × `variants`, with its I/O floor measured after the run. */
async function hatAgainstFloor(label: string, inputs: number) {
  // Its peak RSS is left out: with --floor the child keeps every row (section `memory` has the CLI's).
  const { maxRssMB: _heldRows, ...figure } = await augmentChild(
    [
      '--inputs',
      String(inputs),
      '--policy',
      'hat',
      '--variants',
      String(variants),
      '--floor',
      '--skip-digest',
    ],
    await bundledAugmentChild(),
  );
  const run = {
    rows: figure.rows ?? 0,
    cpuSeconds: figure.cpuSeconds ?? Number.NaN,
    floorCpuSeconds: figure.floorCpuSeconds ?? Number.NaN,
  };
  console.log(
    `hat, ${label}: ${run.rows} rows (${inputs} inputs × ${variants}, bundled), ${run.cpuSeconds.toFixed(2)} CPU-s, ` +
      `${(run.rows / run.cpuSeconds).toFixed(0)} rows/CPU-s, ${(run.cpuSeconds / run.floorCpuSeconds).toFixed(1)}× ` +
      `its I/O floor (${run.floorCpuSeconds.toFixed(2)} CPU-s)`,
  );
  return { figure, run };
}

await section('scale', async () => {
  const { figure, run } = await hatAgainstFloor('at the goals’ size', scaleInputs);
  figures.scale = run;
  results.scale = { hat: figure };
});

await section('first-run', async () => {
  const { figure, run } = await hatAgainstFloor('a first run', firstRunInputs);
  figures.firstRun = run;
  results.firstRun = { hat: figure };
});

await section('pipeline', async () => {
  const { pipelineOverhead } = await import('./bench/pipeline-overhead.js');
  const measure = (answerMs: number) =>
    pipelineOverhead({ units: pipelineUnits, concurrency: 64, answerMs, threads: pipelineThreads });
  const figure = await measure(50);
  // The same run with an endpoint that answers at once: the pipeline's own work (augmentation, certificates,
  // exports). The 50 ms run cannot end before this nor before the ideal.
  const instant = await measure(0);
  figures.pipeline = {
    units: figure.units,
    wallSeconds: figure.wallSeconds,
    idealSeconds: figure.idealSeconds,
    instantWallSeconds: instant.wallSeconds,
  };
  results.pipeline = {
    ...figure,
    instantWallSeconds: instant.wallSeconds,
    instantCpuSeconds: instant.cpuSeconds,
  };
  console.log(
    `pipeline, ${figure.units} units at concurrency ${figure.concurrency}, ${figure.answerMs} ms answers, ` +
      `${figure.threads} augment threads: ${figure.wallSeconds.toFixed(2)} s wall (ideal ` +
      `${figure.idealSeconds.toFixed(2)} s, ${figure.requests} requests, at most ${figure.maxInFlight} in flight, ` +
      `the first after ${figure.firstRequestSeconds.toFixed(2)} s); instant answers ${instant.wallSeconds.toFixed(2)} s ` +
      `wall (${instant.cpuSeconds.toFixed(1)} CPU-s)`,
  );
});

await section('start', async () => {
  // `npm start`: the whole bundled job (validate, pipeline, exports, benchmark set) in a child process, as
  // package.json runs it, without npm's own start-up. Its bundle is brought up to date first, untimed: a
  // clone's first `npm start` adds that build once. The stages are the job's own account of its CPU.
  const root = fileURLToPath(new URL('..', import.meta.url));
  const { built } = (await bundledEntry({
    root,
    entry: 'scripts/start.ts',
    folder: join(root, '.start-build'),
  })) as { built: boolean };
  const measured = await childCpu(process.execPath, ['scripts/start.mjs']);
  const stages = parseStages(measured.stdout) ?? {};
  figures.start = { cpuSeconds: measured.cpuSeconds };
  results.start = { cpuSeconds: measured.cpuSeconds, bundleBuiltBeforeTiming: built, stages };
  console.log(
    `npm start: ${measured.cpuSeconds.toFixed(1)} CPU-s; ` +
      Object.entries(stages)
        .map(([stage, seconds]) => `${stage} ${seconds.toFixed(1)}`)
        .join(', '),
  );
});

await section('workers', async () => {
  // `hsa augment --workers N`: worker threads in one process (CPU of the whole process, threads included),
  // bundled as the CLI runs them, with a byte check of the rows.
  const job = ['--inputs', String(workersInputs), '--policy', workersPolicy, '--variants', String(variants)];
  const bundled = await bundledAugmentChild();
  const one = await augmentChild([...job, '--workers', '1'], bundled);
  const many = await augmentChild([...job, '--workers', String(workers)], bundled);
  figures.workers = {
    count: workers,
    policy: workersPolicy,
    rows: one.rows ?? 0,
    one: { cpuSeconds: one.cpuSeconds ?? Number.NaN, wallSeconds: one.wallSeconds ?? Number.NaN },
    many: { cpuSeconds: many.cpuSeconds ?? Number.NaN, wallSeconds: many.wallSeconds ?? Number.NaN },
    sameBytes: one.sha256 === many.sha256,
  };
  results.workers = {
    one,
    many,
    count: workers,
    policy: workersPolicy,
    availableParallelism: availableParallelism(),
  };
  console.log(
    `--workers 1 → ${workers}, ${workersPolicy}, ${one.rows} rows, bundled: CPU ${one.cpuSeconds?.toFixed(1)} s → ` +
      `${many.cpuSeconds?.toFixed(1)} s, wall ${one.wallSeconds?.toFixed(1)} s → ${many.wallSeconds?.toFixed(1)} s, ` +
      `${one.sha256 === many.sha256 ? 'same bytes' : 'DIFFERENT BYTES'}`,
  );
});

// The other figures: no goal is set on them.
const harness = await loadHarnessFile(harnessFile);
const registry = createRegistry(builtinOperators);

await section('startup', async () => {
  // The CLI from source (through tsx, as `npm exec` runs it in this repository): a command that only
  // parses its arguments.
  const startup: Record<string, number> = {};
  for (const [label, args] of [
    ['hsa --help', ['--help']],
    ['hsa augment --help', ['augment', '--help']],
  ] as const) {
    const measured = await childCpu(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args]);
    startup[label] = measured.cpuSeconds;
    console.log(`start-up from source, ${label}: ${measured.cpuSeconds.toFixed(2)} CPU-s`);
  }
  results.startup = startup;
});

await section('latency', async () => {
  // The loop's own overhead per turn with a model that answers at once (`hsa latency` adds it to every turn).
  const { replayLatency } = await import('../src/runtime/latency.js');
  const { createLivestreamScenario } = await import('../src/scenarios/livestream/index.js');
  const instant = {
    async complete() {
      return {
        id: 'bench',
        object: 'chat.completion' as const,
        created: 0,
        model: 'instant',
        choices: [
          {
            index: 0,
            message: { role: 'assistant' as const, content: 'Link 1 is 59 yuan after the coupon.' },
            finish_reason: 'stop' as const,
          },
        ],
      };
    },
  };
  const report = await replayLatency({
    scenario: createLivestreamScenario(),
    harness,
    model: instant,
    episodes: numberFrom('BENCH_LATENCY_EPISODES', 100),
    concurrency: 1,
  });
  results.latency = {
    turns: report.turns,
    overheadPerTurnMs: {
      mean: report.overheadPerTurn.mean,
      p50: report.overheadPerTurn.p50,
      p99: report.overheadPerTurn.p99,
    },
  };
  console.log(
    `latency replay: ${report.turns} turns; loop overhead per turn mean ${report.overheadPerTurn.mean.toFixed(3)} ms, ` +
      `P50 ${report.overheadPerTurn.p50.toFixed(3)} ms, P99 ${report.overheadPerTurn.p99.toFixed(3)} ms`,
  );
});

await section('simulate', async () => {
  // The runtime: simulated episodes per CPU second with the oracle, under the base harness, with 20% tool
  // faults, and under `hat` variants.
  const { simulate } = await import('../src/runtime/sim/simulate.js');
  const { createLivestreamScenario } = await import('../src/scenarios/livestream/index.js');
  const scenario = createLivestreamScenario();
  const simulated: Record<string, unknown> = {};
  const hat = { plan: compilePolicy(parsePolicy(presets.hat), registry) };
  for (const [label, options] of [
    ['base harness', {}],
    ['20% tool faults', { faults: { rate: 0.2 } }],
    ['augment hat', { augment: hat }],
  ] as const) {
    const started = process.cpuUsage();
    let episodes = 0;
    const wanted = label === 'augment hat' ? 100 : 1000;
    for await (const _episode of simulate({ scenario, harness, episodes: wanted, seed: 'bench', ...options }))
      episodes++;
    const seconds = cpuSeconds(started);
    simulated[label] = { episodes, cpuSeconds: seconds, episodesPerCpuSecond: episodes / seconds };
    console.log(
      `simulate (${label}): ${episodes} episodes → ${(episodes / seconds).toFixed(0)} episodes/CPU-s`,
    );
  }
  results.simulate = simulated;
});

await section('shards', async () => {
  // `--shard i/n` across processes (through tsx), started together: wall time of the whole set.
  const job = ['--inputs', String(workersInputs), '--policy', 'tools-only', '--variants', String(variants)];
  const timed = async (count: number) => {
    const started = performance.now();
    const runs = await Promise.all(
      Array.from({ length: count }, (_, index) => augmentChild([...job, '--shard', `${index}/${count}`])),
    );
    return {
      wallSeconds: (performance.now() - started) / 1000,
      cpuSeconds: runs.reduce((sum, run) => sum + (run.cpuSeconds ?? 0), 0),
      rows: runs.reduce((sum, run) => sum + (run.rows ?? 0), 0),
    };
  };
  const one = await timed(1);
  const many = await timed(workers);
  results.shards = { one, many, count: workers, speedUp: one.wallSeconds / many.wallSeconds };
  console.log(
    `shard processes, tools-only: 1 → ${workers}: wall ${one.wallSeconds.toFixed(1)} s → ${many.wallSeconds.toFixed(1)} s, ` +
      `speed-up ${(one.wallSeconds / many.wallSeconds).toFixed(2)}× (available parallelism ${availableParallelism()})`,
  );
});

await section('policies', async () => {
  // In this process, one policy after another (`hat-no-pool`: every variant built for its example):
  // each policy's CPU against the in-process I/O floor of its rows.
  const inputLines = (await readFile(fixture, 'utf8')).split('\n').filter(Boolean).slice(0, examples);
  const policies: Record<string, unknown> = {};
  for (const label of ['identity', 'tools-only', 'hat', 'hat-no-pool']) {
    const plan = compilePolicy(parsePolicy(presets[label === 'hat-no-pool' ? 'hat' : label]), registry);
    const kept: unknown[] = [];
    let bytes = 0;
    let rejected = 0;
    const started = process.cpuUsage();
    const inputs = inputLines.map((line) => JSON.parse(line) as unknown);
    for await (const row of augment(harness, inputs, {
      plan,
      variants,
      seed: 'bench',
      ...(label === 'hat-no-pool' ? { pool: { size: 0 } } : {}),
      onReject: () => rejected++,
    })) {
      bytes += Buffer.byteLength(JSON.stringify(row)) + 1;
      kept.push(row);
    }
    const augmentCpu = cpuSeconds(started);
    // The least of three passes: a single pass right after augmenting can take its major GC (6× seen).
    let floorCpu = Number.POSITIVE_INFINITY;
    for (let pass = 0; pass < 3; pass++) {
      const floorStarted = process.cpuUsage();
      for (const line of inputLines) JSON.parse(line);
      for (const row of kept) JSON.stringify(row);
      floorCpu = Math.min(floorCpu, cpuSeconds(floorStarted));
    }
    policies[label] = {
      rows: kept.length,
      rejected,
      cpuSeconds: augmentCpu,
      rowsPerCpuSecond: kept.length / augmentCpu,
      floorCpuSeconds: floorCpu,
      ratioToFloor: augmentCpu / floorCpu,
      bytesPerRow: bytes / Math.max(1, kept.length),
    };
    console.log(
      `augment ${label.padEnd(11)} ${examples} × ${variants} in process: ${kept.length} rows, ${rejected} rejected, ` +
        `${(kept.length / augmentCpu).toFixed(1)} rows/CPU-s, ${(augmentCpu / floorCpu).toFixed(1)}× the I/O floor, ` +
        `${(bytes / Math.max(1, kept.length) / 1024).toFixed(1)} KB/row`,
    );
  }
  results.policies = policies;
});

await section('memory', async () => {
  // A user's peak: the bench child bundled as the CLI runs (through tsx a child peaks ~48 MB higher).
  const bundled = await bundledAugmentChild();
  const runs: Array<Record<string, number>> = [];
  for (const inputs of rssInputs) {
    const figure = await augmentChild(
      ['--inputs', String(inputs), '--policy', rssPolicy, '--variants', '1'],
      bundled,
    );
    runs.push(figure);
    console.log(
      `peak RSS, ${rssPolicy} --variants 1, ${inputs} input rows (bundled): ${figure.maxRssMB?.toFixed(0)} MB ` +
        `(${figure.rows} rows, ${figure.cpuSeconds?.toFixed(1)} CPU-s)`,
    );
  }
  const growth = (runs.at(-1)?.maxRssMB ?? 0) / (runs[0]?.maxRssMB ?? 1);
  results.memory = { policy: rssPolicy, runner: 'bundled', runs, growth };
  console.log(`peak RSS growth ${rssInputs.at(0)} → ${rssInputs.at(-1)} input rows: ${growth.toFixed(2)}×`);
});

const machine: BenchMachine = {
  model: cpus()[0]?.model.trim() ?? 'unknown',
  cpus: cpus().length,
  memoryGB: totalmem() / 2 ** 30,
  os: `${type()} ${release()}`,
  node: process.version,
  ...(hammer ? { python: hammer.python } : {}),
  load: { start: loadAtStart, end: loadavg()[0] ?? 0 },
};
const rows: GoalRow[] = goalRows(figures);
const wallSeconds = (performance.now() - runStarted) / 1000;
Object.assign(results, { machine, goals: rows, sectionWallSeconds, leftForTime, wallSeconds });
const settingsLine =
  `${quick ? 'BENCH_QUICK=1, ' : ''}${variants} variants per input; goals' size ${scaleInputs} inputs ` +
  `(${scaleInputs * variants} rows); first run ${firstRunInputs} inputs (${firstRunInputs * variants} rows); ` +
  `pipeline ${pipelineUnits} units, augment threads ${pipelineThreads}; workers ${workersPolicy} ` +
  `${workersInputs} inputs; the whole run ${wallSeconds.toFixed(0)} s wall` +
  (leftForTime.length > 0 ? ` (left out for time: ${leftForTime.join(', ')})` : '');

await mkdir(dirname(outFile), { recursive: true });
await writeFile(outFile, `${JSON.stringify(results, null, 2)}\n`);
const markdownFile = `${outFile.replace(/\.json$/, '')}.md`;
await writeFile(markdownFile, goalsMarkdown(rows, machine, settingsLine, startedAt.toISOString()));
console.log(`\n${goalsMarkdown(rows, machine, settingsLine, startedAt.toISOString())}`);
console.log(`figures: ${outFile}, ${markdownFile}`);

if (process.env.BENCH_COMPARE) {
  const old = JSON.parse(await readFile(process.env.BENCH_COMPARE, 'utf8')) as { goals?: GoalRow[] };
  for (const row of rows) {
    const earlier = old.goals?.find((candidate) => candidate.id === row.id);
    if (earlier?.ratio === undefined || row.ratio === undefined) continue;
    console.log(
      `vs ${process.env.BENCH_COMPARE}: ${row.id} ${earlier.ratio.toFixed(3)} → ${row.ratio.toFixed(3)}`,
    );
  }
}

// `npm run bench`: how fast `augment` is on the live-stream fixture against the in-process I/O floor (parse
// the input + stringify the same output rows), bytes per row, peak RSS at two input sizes (child processes),
// the speed-up from 1 to N shard processes, the pipeline's overhead against a loopback OpenAI-compatible
// endpoint, and simulated episodes per second. Times are CPU seconds of this process (process.cpuUsage)
// unless marked wall. Figures go to out/bench.json (BENCH_OUT); BENCH_COMPARE=<old json> prints the
// ratios new / old. Timings are reported, never asserted: a benchmark decides nothing in the test suite.
//
// Knobs (environment): BENCH_EXAMPLES (fixture trajectories per policy, default 100), BENCH_VARIANTS
// (default 8), BENCH_RSS_INPUTS (default 10000,100000), BENCH_WORKERS (default 2), BENCH_PIPELINE_UNITS
// (default 500), BENCH_SKIP (comma list of sections to leave out: policies, memory, workers, pipeline,
// simulate, latency).
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { builtinOperators } from '../perturbations/index.js';
import { augment } from '../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../src/augment/policy.js';
import { presets } from '../src/augment/presets.js';
import { createRegistry } from '../src/augment/registry.js';
import { loadHarnessFile } from '../src/harness/parse-harness.js';

const run = promisify(execFile);
const examples = Number(process.env.BENCH_EXAMPLES ?? 100);
const variants = Number(process.env.BENCH_VARIANTS ?? 8);
const rssInputs = (process.env.BENCH_RSS_INPUTS ?? '10000,100000').split(',').map(Number);
const workers = Number(process.env.BENCH_WORKERS ?? 2);
const skip = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));
const outFile = process.env.BENCH_OUT ?? 'out/bench.json';
const pipelineUnits = Number(process.env.BENCH_PIPELINE_UNITS ?? 500);

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
  settings: { examples, variants, rssInputs, workers, pipelineUnits },
};

const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
const inputLines = (await readFile('fixtures/livestream/trajectories.jsonl', 'utf8'))
  .split('\n')
  .filter(Boolean)
  .slice(0, examples);
const registry = createRegistry(builtinOperators);

if (!skip.has('policies')) {
  const policies: Record<string, unknown> = {};
  // `hat` draws from the variant pool (the default); `hat-no-pool` builds every variant for its example.
  for (const label of ['identity', 'tools-only', 'hat', 'hat-no-pool']) {
    const policyName = label === 'hat-no-pool' ? 'hat' : label;
    const plan = compilePolicy(parsePolicy(presets[policyName]), registry);
    const kept: unknown[] = [];
    let bytes = 0;
    let rejected = 0;
    const wallStarted = performance.now();
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
    const augmentWall = (performance.now() - wallStarted) / 1000;
    // The floor: parse the same input lines, stringify the same output rows.
    const floorStarted = process.cpuUsage();
    for (const line of inputLines) JSON.parse(line);
    for (const row of kept) JSON.stringify(row);
    const floorCpu = cpuSeconds(floorStarted);
    const figure = {
      rows: kept.length,
      rejected,
      cpuSeconds: augmentCpu,
      wallSeconds: augmentWall,
      rowsPerCpuSecond: kept.length / augmentCpu,
      floorCpuSeconds: floorCpu,
      ratioToFloor: augmentCpu / floorCpu,
      bytesPerRow: bytes / Math.max(1, kept.length),
    };
    policies[label] = figure;
    console.log(
      `augment ${label.padEnd(11)} ${examples} × ${variants}: ${kept.length} rows, ${rejected} rejected, ` +
        `${figure.rowsPerCpuSecond.toFixed(1)} rows/CPU-s, ${figure.ratioToFloor.toFixed(1)}× the I/O floor, ` +
        `${(figure.bytesPerRow / 1024).toFixed(1)} KB/row`,
    );
  }
  results.policies = policies;
}

async function child(args: string[]): Promise<Record<string, number>> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'scripts/bench/augment-child.ts', ...args],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, number>;
}

if (!skip.has('memory')) {
  const memory: Array<Record<string, number>> = [];
  for (const inputs of rssInputs) {
    const figure = await child(['--inputs', String(inputs), '--policy', 'identity', '--variants', '1']);
    memory.push(figure);
    console.log(
      `peak RSS, identity --variants 1, ${inputs} input rows: ${figure.maxRssMB?.toFixed(0)} MB ` +
        `(${figure.rows} rows, ${figure.cpuSeconds?.toFixed(1)} CPU-s)`,
    );
  }
  const first = memory[0]?.maxRssMB ?? 0;
  const last = memory.at(-1)?.maxRssMB ?? 0;
  results.memory = { runs: memory, growth: last / first };
  console.log(
    `peak RSS growth ${rssInputs.at(0)} → ${rssInputs.at(-1)} input rows: ${(last / first).toFixed(2)}×`,
  );
}

if (!skip.has('workers')) {
  // Today's parallelism is --shard i/n across processes; wall time of the whole set, started together.
  const timed = async (count: number) => {
    const started = performance.now();
    const figures = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        child([
          '--inputs',
          String(examples),
          '--policy',
          'tools-only',
          '--variants',
          String(variants),
          '--shard',
          `${index}/${count}`,
        ]),
      ),
    );
    return {
      wallSeconds: (performance.now() - started) / 1000,
      cpuSeconds: figures.reduce((sum, figure) => sum + (figure.cpuSeconds ?? 0), 0),
      rows: figures.reduce((sum, figure) => sum + (figure.rows ?? 0), 0),
    };
  };
  const one = await timed(1);
  const many = await timed(workers);
  results.workers = { one, many, count: workers, speedUp: one.wallSeconds / many.wallSeconds };
  console.log(
    `shard processes, tools-only: 1 → ${workers}: wall ${one.wallSeconds.toFixed(1)} s → ${many.wallSeconds.toFixed(1)} s, ` +
      `speed-up ${(one.wallSeconds / many.wallSeconds).toFixed(2)}× (available parallelism ${availableParallelism()})`,
  );
}

if (!skip.has('pipeline')) {
  const { pipelineOverhead } = await import('./bench/pipeline-overhead.js');
  const figure = await pipelineOverhead({ units: pipelineUnits, concurrency: 64, answerMs: 50 });
  results.pipeline = figure;
  console.log(
    `pipeline, ${figure.units} units at concurrency ${figure.concurrency}, ${figure.answerMs} ms answers: ` +
      `${figure.wallSeconds.toFixed(2)} s wall against an ideal ${figure.idealSeconds.toFixed(2)} s ` +
      `(${figure.requests} requests) → overhead +${(100 * figure.overhead).toFixed(0)}%, ` +
      `at most ${figure.maxInFlight} requests in flight`,
  );
}

if (!skip.has('simulate')) {
  // The runtime: simulated episodes per second with the oracle, under the base harness and with 20% faults.
  const { simulate } = await import('../src/runtime/sim/simulate.js');
  const { createLivestreamScenario } = await import('../src/scenarios/livestream/index.js');
  const scenario = createLivestreamScenario();
  const simulated: Record<string, unknown> = {};
  for (const [label, options] of [
    ['base harness', {}],
    ['20% tool faults', { faults: { rate: 0.2 } }],
  ] as const) {
    const started = process.cpuUsage();
    let episodes = 0;
    for await (const _episode of simulate({ scenario, harness, episodes: 1000, seed: 'bench', ...options }))
      episodes++;
    const seconds = cpuSeconds(started);
    simulated[label] = { episodes, cpuSeconds: seconds, episodesPerCpuSecond: episodes / seconds };
    console.log(
      `simulate (${label}): ${episodes} episodes → ${(episodes / seconds).toFixed(0)} episodes/CPU-s`,
    );
  }
  results.simulate = simulated;
}

if (!skip.has('latency')) {
  // Latency replay: the loop's own overhead per turn (prompt rendering, hooks, tools, bookkeeping), with a
  // model that answers at once, so a turn's time is all overhead. `hsa latency` adds this to every turn.
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
    episodes: Number(process.env.BENCH_LATENCY_EPISODES ?? 100),
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
    `latency replay overhead: ${report.turns} turns, ${report.modelCalls} model calls; loop overhead per turn mean ${report.overheadPerTurn.mean.toFixed(3)} ms, P50 ${report.overheadPerTurn.p50.toFixed(3)} ms, P99 ${report.overheadPerTurn.p99.toFixed(3)} ms; whole turn with the instant model (request building included) mean ${report.turn.mean.toFixed(3)} ms, P99 ${report.turn.p99.toFixed(3)} ms`,
  );
}

await mkdir(dirname(outFile), { recursive: true });
await writeFile(outFile, `${JSON.stringify(results, null, 2)}\n`);
console.log(`figures: ${outFile}`);
if (process.env.BENCH_COMPARE) {
  const old = JSON.parse(await readFile(process.env.BENCH_COMPARE, 'utf8')) as typeof results;
  const policies = (results.policies ?? {}) as Record<string, Record<string, number>>;
  const before = (old.policies ?? {}) as Record<string, Record<string, number>>;
  for (const [name, figure] of Object.entries(policies)) {
    const earlier = before[name];
    if (!earlier) continue;
    console.log(
      `vs ${process.env.BENCH_COMPARE}: ${name} ratio to floor ${earlier.ratioToFloor?.toFixed(1)}× → ${figure.ratioToFloor?.toFixed(1)}×, ` +
        `bytes/row ${((earlier.bytesPerRow ?? 0) / 1024).toFixed(1)} → ${((figure.bytesPerRow ?? 0) / 1024).toFixed(1)} KB`,
    );
  }
}

// `npm run bench`: how fast `augment` is on the live-stream fixture against the in-process I/O floor (parse
// the input + stringify the same output rows), bytes per row, peak RSS at two input sizes (child processes),
// the speed-up from 1 to N shard processes, the pipeline's overhead against a loopback OpenAI-compatible
// endpoint, and simulated episodes per second. Times are CPU seconds of this process (process.cpuUsage)
// unless marked wall. Figures go to out/bench.json (BENCH_OUT); BENCH_COMPARE=<old json> prints the
// ratios new / old. Timings are reported, never asserted: a benchmark decides nothing in the test suite.
//
// Knobs (environment): BENCH_EXAMPLES (fixture trajectories per policy, default 100), BENCH_VARIANTS
// (default 8), BENCH_RSS_INPUTS (default 10000,100000), BENCH_RSS_POLICY (default identity), BENCH_WORKERS
// (default 2), BENCH_PIPELINE_UNITS (default 500), BENCH_SCALE_ROWS (default 10000), BENCH_SKIP (comma
// list of sections to leave out: policies, masking, scale, memory, workers, pipeline, simulate, latency,
// startup, start).
//
// Child processes (the masking baseline, start-up, `npm start`) are timed by their CPU seconds as the kernel
// counts them for this process's waited-for children (/proc/self/stat cutime + cstime, Linux).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { builtinOperators } from '../perturbations/index.js';
import { augment } from '../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../src/augment/policy.js';
import { presets } from '../src/augment/presets.js';
import { createRegistry } from '../src/augment/registry.js';
import { loadHarnessFile } from '../src/harness/parse-harness.js';
import { cycledId } from './bench/cycled-inputs.js';
// @ts-expect-error: plain JavaScript (it runs before anything compiles TypeScript), no declarations.
import { bundledEntry } from './start.mjs';
import { parseStages } from './start-stages.js';

const run = promisify(execFile);
const examples = Number(process.env.BENCH_EXAMPLES ?? 100);
const variants = Number(process.env.BENCH_VARIANTS ?? 8);
const rssInputs = (process.env.BENCH_RSS_INPUTS ?? '10000,100000').split(',').map(Number);
const workers = Number(process.env.BENCH_WORKERS ?? 2);
const skip = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));
const outFile = process.env.BENCH_OUT ?? 'out/bench.json';
const pipelineUnits = Number(process.env.BENCH_PIPELINE_UNITS ?? 500);
// Worker threads that augment the pipeline's units (`augment.threads`): a number or `auto`.
const pipelineThreads =
  process.env.BENCH_PIPELINE_THREADS === undefined || process.env.BENCH_PIPELINE_THREADS === 'auto'
    ? ('auto' as const)
    : Number(process.env.BENCH_PIPELINE_THREADS);
const rssPolicy = process.env.BENCH_RSS_POLICY ?? 'identity';
// The output rows of the figures at the goals' size (`scale`): 10k, as the goals are set.
const scaleRows = Number(process.env.BENCH_SCALE_ROWS ?? 10000);

/** CPU seconds (user + system) of this process's children that have exited, from /proc/self/stat. */
function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of stat(5) (cutime, cstime), counted from the state field (3): indexes 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Runs a command to its end and returns the CPU seconds it and its children used. */
async function childCpu(file: string, args: string[]): Promise<{ cpuSeconds: number; stdout: string }> {
  const before = childrenCpuSeconds();
  const { stdout } = await run(file, args, { maxBuffer: 64 << 20 });
  return { cpuSeconds: childrenCpuSeconds() - before, stdout };
}

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
  settings: { examples, variants, scaleRows, rssInputs, workers, pipelineUnits, pipelineThreads },
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
    // The floor: parse the same input lines, stringify the same output rows. The least of three passes: a
    // single pass right after augmenting can take the major GC of augmentation's garbage (6× seen).
    let floorCpu = Number.POSITIVE_INFINITY;
    for (let pass = 0; pass < 3; pass++) {
      const floorStarted = process.cpuUsage();
      for (const line of inputLines) JSON.parse(line);
      for (const row of kept) JSON.stringify(row);
      floorCpu = Math.min(floorCpu, cpuSeconds(floorStarted));
    }
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

if (!skip.has('masking')) {
  // Function masking (Hammer's idea, re-implemented in Python: scripts/bench/function-masking.py) on the
  // same input lines and variant count, against augment's tools-only figure of this run.
  await mkdir('out/bench', { recursive: true });
  const source = 'out/bench/masking-input.jsonl';
  await writeFile(source, `${inputLines.join('\n')}\n`);
  const python = process.env.BENCH_PYTHON ?? 'python3';
  const measured = await childCpu(python, [
    'scripts/bench/function-masking.py',
    source,
    String(variants),
    String(examples),
    'out/bench/masking-output.jsonl',
  ]);
  const figure = JSON.parse(measured.stdout.trim()) as { rows: number; bytes: number; cpuSeconds: number };
  const masking = {
    rows: figure.rows,
    inProcessCpuSeconds: figure.cpuSeconds,
    cpuSeconds: measured.cpuSeconds,
    rowsPerCpuSecond: figure.rows / measured.cpuSeconds,
  };
  const toolsOnly = (results.policies as Record<string, { rowsPerCpuSecond: number }> | undefined)?.[
    'tools-only'
  ];
  results.masking = {
    ...masking,
    ...(toolsOnly ? { toolsOnlyVsMasking: toolsOnly.rowsPerCpuSecond / masking.rowsPerCpuSecond } : {}),
  };
  console.log(
    `function masking (Python baseline): ${masking.rows} rows, ${masking.rowsPerCpuSecond.toFixed(0)} rows/CPU-s ` +
      `(interpreter start-up included)` +
      (toolsOnly
        ? `; augment tools-only is ${(toolsOnly.rowsPerCpuSecond / masking.rowsPerCpuSecond).toFixed(3)}× its rows/CPU-s`
        : ''),
  );
}

/** The bench child from source, through tsx. */
const childFromSource = ['--import', 'tsx', 'scripts/bench/augment-child.ts'];

async function child(args: string[], entry: string[] = childFromSource): Promise<Record<string, number>> {
  const { stdout } = await run(process.execPath, [...entry, ...args], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, number>;
}

/**
 * The bench child bundled as the CLI is built (one bundle on plain Node), with its worker thread's bundle
 * where the built pool looks for it (`workers/augment-worker.js` beside the bundle). The child first: its
 * build empties its folder.
 */
async function bundledChild(): Promise<string> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const folder = join(root, 'out', 'bench-child');
  const { file } = (await bundledEntry({ root, entry: 'scripts/bench/augment-child.ts', folder })) as {
    file: string;
  };
  await bundledEntry({
    root,
    entry: 'src/pipeline/parallel/augment-worker.ts',
    folder: join(folder, 'workers'),
    extension: '.js',
  });
  return file;
}

if (!skip.has('scale')) {
  // The sizes the goals are set at (`hat` ≤ 5× the I/O floor, tools-only ≥ 1× the masking baseline, at 10k
  // rows): the bench child, bundled as the CLI runs, on the fixture's lines cycled with fresh ids, measures
  // its own floor after its run (--floor); the Python baseline masks the same lines.
  const bundled = await bundledChild();
  const inputs = Math.ceil(scaleRows / variants);
  const scale: Record<string, Record<string, number>> = {};
  for (const policy of ['tools-only', 'hat']) {
    // Its peak RSS is left out: with --floor the child keeps every row (the memory section measures the CLI's).
    const { maxRssMB: _heldRows, ...figure } = await child(
      ['--inputs', String(inputs), '--policy', policy, '--variants', String(variants), '--floor'],
      [bundled],
    );
    const floorCpu = figure.floorCpuSeconds ?? Number.NaN;
    const cpu = figure.cpuSeconds ?? Number.NaN;
    scale[policy] = {
      ...figure,
      rowsPerCpuSecond: (figure.rows ?? 0) / cpu,
      ratioToFloor: cpu / floorCpu,
    };
    console.log(
      `augment ${policy} at ${figure.rows} rows (${inputs} inputs × ${variants}, bundled): ` +
        `${cpu.toFixed(1)} CPU-s, ${((figure.rows ?? 0) / cpu).toFixed(0)} rows/CPU-s, ` +
        `${(cpu / floorCpu).toFixed(1)}× its I/O floor (${floorCpu.toFixed(2)} CPU-s)`,
    );
  }
  if (!skip.has('masking')) {
    // The same cycled lines the child reads.
    const fixtureLines = (await readFile('fixtures/livestream/trajectories.jsonl', 'utf8'))
      .split('\n')
      .filter(Boolean);
    const cycled = Array.from({ length: inputs }, (_, index) => {
      const value = JSON.parse(fixtureLines[index % fixtureLines.length] as string) as { id: string };
      value.id = cycledId(value.id, index, fixtureLines.length);
      return JSON.stringify(value);
    });
    await mkdir('out/bench', { recursive: true });
    const source = 'out/bench/masking-scale-input.jsonl';
    await writeFile(source, `${cycled.join('\n')}\n`);
    const measured = await childCpu(process.env.BENCH_PYTHON ?? 'python3', [
      'scripts/bench/function-masking.py',
      source,
      String(variants),
      String(inputs),
      'out/bench/masking-scale-output.jsonl',
    ]);
    const masked = JSON.parse(measured.stdout.trim()) as { rows: number };
    const maskingRate = masked.rows / measured.cpuSeconds;
    const toolsOnlyRate = scale['tools-only']?.rowsPerCpuSecond ?? Number.NaN;
    scale.masking = { rows: masked.rows, cpuSeconds: measured.cpuSeconds, rowsPerCpuSecond: maskingRate };
    scale.ratios = { toolsOnlyVsMasking: toolsOnlyRate / maskingRate };
    console.log(
      `function masking (Python) at ${masked.rows} rows: ${maskingRate.toFixed(0)} rows/CPU-s; ` +
        `augment tools-only is ${(toolsOnlyRate / maskingRate).toFixed(3)}× its rows/CPU-s`,
    );
  }
  results.scale = scale;
}

if (!skip.has('memory')) {
  // A user's peak: `hsa augment` runs the built CLI (one bundle) on plain Node, so the RSS child is bundled
  // the way `npm start` bundles its job (scripts/start.mjs) and run without tsx. Through tsx the same job
  // peaks higher (its loader thread, each module's source and source map: +48 MB at 1k rows;
  // docs/decisions/0004-measure-ratios-in-one-run.md), which no user pays; the tsx figure of the first size is
  // printed beside it.
  const bundled = await bundledChild();
  const memory: Array<Record<string, number>> = [];
  for (const inputs of rssInputs) {
    const figure = await child(
      ['--inputs', String(inputs), '--policy', rssPolicy, '--variants', '1'],
      [bundled],
    );
    memory.push(figure);
    console.log(
      `peak RSS, ${rssPolicy} --variants 1, ${inputs} input rows (bundled, as the CLI runs): ` +
        `${figure.maxRssMB?.toFixed(0)} MB (${figure.rows} rows, ${figure.cpuSeconds?.toFixed(1)} CPU-s)`,
    );
  }
  const first = memory[0]?.maxRssMB ?? 0;
  const last = memory.at(-1)?.maxRssMB ?? 0;
  const fromSource = await child([
    '--inputs',
    String(rssInputs[0]),
    '--policy',
    rssPolicy,
    '--variants',
    '1',
  ]);
  results.memory = { policy: rssPolicy, runner: 'bundled', runs: memory, growth: last / first, fromSource };
  console.log(
    `peak RSS growth ${rssInputs.at(0)} → ${rssInputs.at(-1)} input rows: ${(last / first).toFixed(2)}×; ` +
      `${rssInputs[0]} rows through tsx (from source): ${fromSource.maxRssMB?.toFixed(0)} MB`,
  );
}

if (!skip.has('workers')) {
  // Today's parallelism is --shard i/n across processes; wall time of the whole set, started together.
  const toolsOnlySet = [
    '--inputs',
    String(examples),
    '--policy',
    'tools-only',
    '--variants',
    String(variants),
  ];
  const timed = async (count: number) => {
    const started = performance.now();
    const figures = await Promise.all(
      Array.from({ length: count }, (_, index) => child([...toolsOnlySet, '--shard', `${index}/${count}`])),
    );
    return {
      wallSeconds: (performance.now() - started) / 1000,
      cpuSeconds: figures.reduce((sum, figure) => sum + (figure.cpuSeconds ?? 0), 0),
      rows: figures.reduce((sum, figure) => sum + (figure.rows ?? 0), 0),
    };
  };
  const one = await timed(1);
  const many = await timed(workers);
  // `hsa augment --workers N`: worker threads in one process (CPU of the whole process, threads included),
  // bundled as the CLI runs them: from source every thread loads tsx and compiles the modules again, which
  // no user pays (about twice the CPU of one thread on this set).
  const bundled = await bundledChild();
  const threaded = async (count: number) => child([...toolsOnlySet, '--workers', String(count)], [bundled]);
  const oneThread = await threaded(1);
  const manyThreads = await threaded(workers);
  results.workers = {
    one,
    many,
    count: workers,
    speedUp: one.wallSeconds / many.wallSeconds,
    threads: {
      one: oneThread,
      many: manyThreads,
      cpuRatio: (manyThreads.cpuSeconds ?? 0) / (oneThread.cpuSeconds ?? 1),
      wallRatio: (manyThreads.wallSeconds ?? 0) / (oneThread.wallSeconds ?? 1),
      sameBytes: manyThreads.sha256 === oneThread.sha256,
    },
  };
  console.log(
    `shard processes, tools-only: 1 → ${workers}: wall ${one.wallSeconds.toFixed(1)} s → ${many.wallSeconds.toFixed(1)} s, ` +
      `speed-up ${(one.wallSeconds / many.wallSeconds).toFixed(2)}× (available parallelism ${availableParallelism()})`,
  );
  console.log(
    `--workers 1 → ${workers}, tools-only, bundled: CPU ${oneThread.cpuSeconds?.toFixed(1)} s → ${manyThreads.cpuSeconds?.toFixed(1)} s ` +
      `(${((manyThreads.cpuSeconds ?? 0) / (oneThread.cpuSeconds ?? 1)).toFixed(2)}×), wall ` +
      `${oneThread.wallSeconds?.toFixed(1)} s → ${manyThreads.wallSeconds?.toFixed(1)} s, ` +
      `${manyThreads.sha256 === oneThread.sha256 ? 'same bytes' : 'DIFFERENT BYTES'}`,
  );
}

if (!skip.has('pipeline')) {
  const { pipelineOverhead } = await import('./bench/pipeline-overhead.js');
  const run = (answerMs: number) =>
    pipelineOverhead({ units: pipelineUnits, concurrency: 64, answerMs, threads: pipelineThreads });
  const figure = await run(50);
  // The same run with an endpoint that answers at once: the pipeline's own work (augmentation, certificates,
  // exports). The 50 ms run cannot end before this nor before the ideal; how far it lands past the larger
  // of the two says whether the endpoint's waits overlap the work or add to it.
  const instant = await run(0);
  const overFloor = figure.wallSeconds / Math.max(instant.wallSeconds, figure.idealSeconds) - 1;
  results.pipeline = { ...figure, instantWallSeconds: instant.wallSeconds, overFloor };
  console.log(
    `pipeline, ${figure.units} units at concurrency ${figure.concurrency}, ${figure.answerMs} ms answers, ` +
      `${figure.threads} augment threads: ` +
      `${figure.wallSeconds.toFixed(2)} s wall against an ideal ${figure.idealSeconds.toFixed(2)} s ` +
      `(${figure.requests} requests) → overhead +${(100 * figure.overhead).toFixed(0)}%, ` +
      `at most ${figure.maxInFlight} requests in flight, the first after ${figure.firstRequestSeconds.toFixed(2)} s, ` +
      (figure.fullWindowSeconds == null
        ? `never ${figure.concurrency} in flight`
        : `${figure.concurrency} in flight after ${figure.fullWindowSeconds.toFixed(2)} s`),
  );
  console.log(
    `pipeline, the same units with instant answers: ${instant.wallSeconds.toFixed(2)} s wall ` +
      `(${instant.cpuSeconds.toFixed(1)} CPU-s); the 50 ms run is ` +
      `+${(100 * overFloor).toFixed(0)}% over the larger of that and the ideal`,
  );
}

if (!skip.has('simulate')) {
  // The runtime: simulated episodes per second with the oracle, under the base harness and with 20% faults.
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
    const episodesWanted = label === 'augment hat' ? 100 : 1000;
    for await (const _episode of simulate({
      scenario,
      harness,
      episodes: episodesWanted,
      seed: 'bench',
      ...options,
    }))
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

if (!skip.has('startup')) {
  // Start-up of the CLI from source (through tsx, as `npm exec` runs it in this repository): the CPU of a
  // command that does nothing but parse its arguments.
  const startup: Record<string, number> = {};
  for (const [label, args] of [
    ['hsa --help', ['--help']],
    ['hsa augment --help', ['augment', '--help']],
  ] as const) {
    const measured = await childCpu(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args]);
    startup[label] = measured.cpuSeconds;
    console.log(`start-up, ${label}: ${measured.cpuSeconds.toFixed(2)} CPU-s`);
  }
  results.startup = startup;
}

if (!skip.has('start')) {
  // `npm start`: the whole bundled job (validate, pipeline, exports, benchmark set) in a child process.
  // The figure is the kernel's count for the child (its threads and its own children included); the
  // stages are the job's own account of where its CPU went (the line start.ts prints).
  // The command `npm start` runs (package.json), without npm's own start-up; it bundles the job first when
  // the source changed since its last bundle (scripts/start.mjs), and that build is counted.
  const measured = await childCpu(process.execPath, ['scripts/start.mjs']);
  const stages = parseStages(measured.stdout) ?? {};
  results.start = { cpuSeconds: measured.cpuSeconds, goal: 15, overGoal: measured.cpuSeconds / 15, stages };
  console.log(
    `npm start: ${measured.cpuSeconds.toFixed(1)} CPU-s (${(measured.cpuSeconds / 15).toFixed(2)}× the goal of 15); ` +
      Object.entries(stages)
        .map(([stage, seconds]) => `${stage} ${seconds.toFixed(1)}`)
        .join(', '),
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

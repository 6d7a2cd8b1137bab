// A bench child process: streams `rows` input trajectories generated from the live-stream fixture (the
// fixture's lines cycled, each copy with its own id) through `augment`, counts the output bytes without
// keeping them, and prints one JSON line: rows, bytes, CPU seconds and peak RSS (resourceUsage().maxRSS).
//
//   tsx scripts/bench/augment-child.ts --inputs 10000 --policy identity --variants 1 [--shard 0/2] [--workers 2]
//     [--by-reference] [--floor] [--skip-digest] [--pool 64]
//
// With --workers N (N > 1) the variants run in the CLI's worker threads (`hsa augment --workers N`); the
// CPU seconds are the whole process's, threads included. With --by-reference the rows are written as
// `hsa augment` writes them by default (each variant harness and relabel once, to the sidecar); `bytes` and
// `sha256` then cover the rows' lines followed by their sidecar lines, and `sidecarEntries` is what the
// writer remembers. With --floor the rows are kept, and after the run the child measures the I/O floor of
// the same job (`floorCpuSeconds`): parse every input line and stringify every row, the least of three
// passes (as `npm run bench`'s in-process figure does; a pass right after augmenting can take its GC).
// With --skip-digest the rows are serialised and counted but not hashed (no `sha256`): the CLI writes rows
// without hashing them, so a section that times the job, and needs no byte check, leaves the hash out.
// --pool N sets the variant pool's size (`hsa augment --variant-pool N`; 0 builds every variant for its
// example), for measuring what the pool trades: its default is the CLI's.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { builtinOperators } from '../../perturbations/index.js';
import { augment, variantPoolFor } from '../../src/augment/augment.js';
import { compilePolicy, parsePolicy } from '../../src/augment/policy.js';
import { presets } from '../../src/augment/presets.js';
import { createRegistry } from '../../src/augment/registry.js';
import { defaultVariantPoolSize } from '../../src/augment/variant-pool.js';
import { createSidecarWriter } from '../../src/augment/variant-sidecar.js';
import { limitHeapGrowth } from '../../src/cli/heap-growth.js';
import { parseShard } from '../../src/cli/shard.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { createAugmentPool } from '../../src/pipeline/parallel/augment-pool.js';
import { cycledId } from './cycled-inputs.js';

// As `hsa` does (src/cli/main.ts): the peak RSS figure is the CLI's.
limitHeapGrowth();

const { values } = parseArgs({
  options: {
    inputs: { type: 'string', default: '396' },
    policy: { type: 'string', default: 'identity' },
    variants: { type: 'string', default: '1' },
    shard: { type: 'string' },
    workers: { type: 'string', default: '1' },
    'by-reference': { type: 'boolean', default: false },
    floor: { type: 'boolean', default: false },
    'skip-digest': { type: 'boolean', default: false },
    pool: { type: 'string', default: String(defaultVariantPoolSize) },
  },
});
const inputCount = Number(values.inputs);
const variants = Number(values.variants);
const shard = parseShard(values.shard);
const harness = await loadHarnessFile('fixtures/livestream/harness.yaml');
// The fixture's lines as UTF-8 bytes, as a reader holds its input (as strings, with the fixture's non-Latin-1
// text, they took 12 MB of the heap that the CLI, streaming its file, never holds).
const fixture = await readFile('fixtures/livestream/trajectories.jsonl');
const lines: Buffer[] = [];
for (let start = 0, end = 0; start < fixture.length; start = end + 1) {
  end = fixture.indexOf(0x0a, start);
  if (end === -1) end = fixture.length;
  if (end > start) lines.push(fixture.subarray(start, end));
}
const plan = compilePolicy(parsePolicy(presets[values.policy as string]), createRegistry(builtinOperators));

/** The fixture's lines cycled, parsed one at a time (as a JSONL reader would), each copy with its own id. */
function* generated(): Generator<unknown> {
  for (let index = 0; index < inputCount; index++) {
    const value = JSON.parse((lines[index % lines.length] as Buffer).toString('utf8')) as { id: string };
    value.id = cycledId(value.id, index, lines.length);
    yield value;
  }
}

const workers = Number(values.workers);
const poolSize = Number(values.pool);
if (!Number.isInteger(poolSize) || poolSize < 0)
  throw new Error(`--pool must be a whole number ≥ 0, got ${values.pool}`);
const cpuBefore = process.cpuUsage();
const threads =
  workers > 1
    ? createAugmentPool(
        {
          harnessFile: 'fixtures/livestream/harness.yaml',
          policy: values.policy as string,
          seed: 'bench',
          variants,
          variantPool: poolSize,
        },
        workers,
        variantPoolFor(harness, { plan, seed: 'bench', pool: { size: poolSize } }),
        // As `hsa augment --workers` runs: the main thread is one of the workers.
        { mainThreadWorks: true },
      )
    : undefined;
const started = performance.now();
let rows = 0;
let bytes = 0;
let rejected = 0;
const digest = values['skip-digest'] ? undefined : createHash('sha256');
const writer = values['by-reference'] ? createSidecarWriter() : undefined;
const kept: unknown[] = [];
for await (const row of augment(harness, generated(), {
  plan,
  variants,
  seed: 'bench',
  ...(shard ? { shard } : {}),
  pool: { size: poolSize },
  ...(threads ? { parallel: threads } : {}),
  onReject: () => rejected++,
})) {
  rows++;
  if (values.floor) kept.push(row);
  if (writer) {
    const lines = writer.write(row);
    bytes += Buffer.byteLength(lines.row) + Buffer.byteLength(lines.sidecar);
    digest?.update(lines.row);
    digest?.update(lines.sidecar);
    continue;
  }
  // Serialised once, as the CLI writes a row once (the digest covers each row's JSON, without the newline).
  const line = JSON.stringify(row);
  bytes += Buffer.byteLength(line) + 1;
  digest?.update(line);
}
await threads?.close();
const cpu = process.cpuUsage(cpuBefore);
const wallSeconds = (performance.now() - started) / 1000;

/** The I/O floor of the run: parse every input line, stringify every row (least of three passes). */
function floorCpuSeconds(): number {
  let least = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 3; pass++) {
    const before = process.cpuUsage();
    for (let index = 0; index < inputCount; index++)
      JSON.parse((lines[index % lines.length] as Buffer).toString('utf8'));
    for (const row of kept) JSON.stringify(row);
    const used = process.cpuUsage(before);
    least = Math.min(least, (used.user + used.system) / 1e6);
  }
  return least;
}
process.stdout.write(
  `${JSON.stringify({
    inputs: inputCount,
    rows,
    rejected,
    bytes,
    ...(digest ? { sha256: digest.digest('hex') } : {}),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    wallSeconds,
    ...(values.floor ? { floorCpuSeconds: floorCpuSeconds() } : {}),
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    ...(writer ? { sidecarEntries: writer.known.entries } : {}),
  })}\n`,
);

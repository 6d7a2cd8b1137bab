// The pipeline runner: a validated configuration in, an output folder out — the SFT set (examples.jsonl),
// the rejects with their reasons, every configured trainer export, the variant benchmark set, and a manifest
// with counts, seeds, hashes and the tool version. Teachers, the judge and the exporters are injected (they
// are adapters); the runner holds the order of work, resume and the bookkeeping.

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { RegenerateFunction } from '../augment/operator.js';
import type { Registry } from '../augment/registry.js';
import { resolvePolicy } from '../augment/resolve-policy.js';
import { readSidecarHashes } from '../augment/variant-sidecar.js';
import { generateBench } from '../bench/generate.js';
import { readBenchItems } from '../bench/items.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { makeFolder, writeFileAtomic } from '../harness/write-file-atomic.js';
import type { Judge } from '../runtime/judge.js';
import type { Scenario } from '../runtime/scenario.js';
import { checkShard } from '../runtime/shard.js';
import { version } from '../version.js';
import { openRunFiles, type RunCounts, runFiles } from './checkpoint.js';
import { exportsOf, exportTarget, type PipelineConfig } from './config.js';
import { createExampleWriter, readTrainingExamples } from './example-sidecar.js';
import { readInputs } from './inputs.js';
import type { JobQueueV1 } from './job-queue.js';
import { type OpdSummary, runOpd } from './opd.js';
import { runSftOnQueue } from './queued-sft.js';
import { planRlRows, type RlExporter, type RlPlan } from './rl.js';
import { runSft, type UnitResult } from './sft.js';
import { prepareSftRun, sftUnitIndexes } from './sft-run.js';
import type { ExportSink, PipelineExporter, Teacher } from './teacher.js';

export interface PipelineDependencies {
  registry: Registry;
  teachers: { exact: Teacher; regenerate: Teacher };
  judge: Judge;
  exporters: Record<string, PipelineExporter>;
  regenerate?: RegenerateFunction;
  /** The scenario `inputs.simulate.scenario` names, resolved by the caller (the CLI). */
  scenario?: Scenario;
  /** Writers of the RL stage's trainer files, by format (src/adapters/trainer/rl). */
  rlExporters?: Readonly<Record<string, RlExporter>>;
  /** The custom hook checks the harness names (the CLI loads `config.hookChecks`). */
  hookChecks?: HookCheckRegistry;
}

export interface PipelineRunOptions {
  /** Continue an interrupted run from its checkpoint. */
  resume?: boolean;
  /** Write whole examples (tools and system prompt) instead of naming their harness in `variants.jsonl`. */
  inlineHarness?: boolean;
  shard?: { index: number; count: number };
  signal?: AbortSignal;
  /** Run the SFT stage's units on this queue's workers instead of in this process; the output is the same. */
  queue?: JobQueueV1;
  onProgress?: (event: {
    stage: 'sft' | 'export' | 'bench' | 'opd' | 'rl';
    counts: RunCounts;
    detail?: string;
  }) => void;
}

export interface OutputFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface PipelineManifest {
  tool: { name: 'harness-augment'; version: string };
  runHash: string;
  seed: string;
  harness: { id: string; hash: string };
  inputs: PipelineConfig['inputs'];
  policy: { name: string; severity: number; variants: number; includeOriginal: boolean };
  teachers: { exact: string; regenerate: string };
  judge: string;
  shard?: { index: number; count: number };
  counts: RunCounts & { read: number };
  files: OutputFile[];
  /** `folder` (under `exports/`) is given when it is not the format's name. */
  exports: Array<{ format: string; folder?: string; rows: number; rejected: number; files: OutputFile[] }>;
  bench?: { rows: number; rejected: number; files: OutputFile[] };
  /** The OPD stage: prompt-only and GKD rows, prompt rejects, the teacher (the pre-SFT base model). */
  opd?: {
    teacher: string;
    student: string;
    read: number;
    rows: OpdSummary['rows'];
    rejected: number;
    byReason: Record<string, number>;
    files: OutputFile[];
  };
  /** The RL stage: groups, rows and harness states, and each trainer's files. */
  rl?: {
    scenario: string;
    seed: string;
    groupSize: number;
    harnessPer: 'group' | 'rollout';
    segments: 'joint' | 'split';
    counts: RlPlan['counts'];
    files: OutputFile[];
    formats: Array<{ format: string; files: OutputFile[] }>;
  };
}

async function fileHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `sha256:${hash.digest('hex')}`;
}

async function describeFile(outDir: string, file: string): Promise<OutputFile> {
  return {
    path: relative(outDir, file).split('\\').join('/'),
    bytes: (await stat(file)).size,
    sha256: await fileHash(file),
  };
}

/** The inputs as the manifest records them: files relative to the output folder. */
function manifestInputs(inputs: PipelineConfig['inputs'], out: string): PipelineConfig['inputs'] {
  const at = (file: string) => relative(out, file).split('\\').join('/');
  if ('trajectories' in inputs) return { trajectories: at(inputs.trajectories) };
  const { simulate } = inputs;
  return {
    simulate: {
      ...simulate,
      ...(isAbsolute(simulate.scenario) ? { scenario: at(simulate.scenario) } : {}),
      ...(simulate.trajectories ? { trajectories: at(simulate.trajectories) } : {}),
      ...(simulate.backends ? { backends: at(simulate.backends) } : {}),
    },
  };
}

function count(counts: RunCounts, result: UnitResult) {
  counts.units++;
  if (result.firstOfTask) counts.tasks++;
  if (result.teacher) counts.teachers[result.teacher] = (counts.teachers[result.teacher] ?? 0) + 1;
  if (result.example) {
    counts.examples++;
    if ((result.collapsed ?? 0) > 0) counts.collapsed++;
    if (result.fullTrace) counts.fullTraces++;
  }
  if (result.reject) {
    counts.rejected++;
    counts.byReason[result.reject.reason] = (counts.byReason[result.reject.reason] ?? 0) + 1;
  }
}

/**
 * Runs the configured pipeline into `config.out`.
 *
 * @example
 * const manifest = await runPipeline(await loadPipelineConfig('pipeline.yaml'), dependencies, { resume: true });
 */
export async function runPipeline(
  config: PipelineConfig,
  dependencies: PipelineDependencies,
  options: PipelineRunOptions = {},
): Promise<PipelineManifest> {
  const shard = options.shard;
  checkShard(shard);
  // Refused before any work: the RL stage plays episodes, so it needs a scenario.
  if (config.rl && !dependencies.scenario)
    throw new HarnessAugmentError('rl: the RL stage plays a scenario; set inputs.simulate.scenario', {
      kind: 'usage',
      issues: [{ code: 'rl_needs_scenario', path: ['rl'], message: 'no scenario to play the RL episodes' }],
    });
  const sft = await prepareSftRun(config, dependencies, shard);
  const { base, baseHash, severity, seed, runHash } = sft;
  const out = config.out;
  const inline = options.inlineHarness === true;
  // The units' hash (what a queue worker checks) is the same either way; inline rows are another output.
  const files = await openRunFiles(out, {
    resume: options.resume === true,
    runHash: inline ? `${runHash}+inline` : runHash,
    sidecar: !inline,
  });
  const variantsFile = join(out, runFiles.variants);
  // A resumed writer knows the harnesses the sidecar already holds (cut back to the checkpoint).
  const writer = createExampleWriter({
    inline,
    known:
      !inline && files.done > 0 && Number.isFinite(files.done) ? await readSidecarHashes(variantsFile) : [],
  });
  const counts = files.counts;
  try {
    if (Number.isFinite(files.done)) {
      const signal = options.signal ? { signal: options.signal } : {};
      const results = options.queue
        ? runSftOnQueue(options.queue, {
            runHash,
            config,
            ...(shard ? { shard } : {}),
            units: sftUnitIndexes(sft, config, dependencies, {
              ...(shard ? { shard } : {}),
              skip: files.done,
            }),
            ...signal,
          })
        : runSft(readInputs(config, base, shard, dependencies.scenario, dependencies.hookChecks), {
            ...sft.options,
            skipUnits: files.done,
            ...signal,
          });
      for await (const result of results) {
        count(counts, result);
        const lines = result.example ? writer.write(result.example, result.source) : undefined;
        await files.commitUnit(
          {
            examples: lines ? [lines.example] : [],
            rejects: result.reject ? [`${JSON.stringify(result.reject)}\n`] : [],
            variants: lines?.sidecar ? [lines.sidecar] : [],
          },
          counts,
        );
        options.onProgress?.({ stage: 'sft', counts });
      }
      await files.complete(counts);
    } else await files.close();
  } catch (error) {
    await files.close();
    throw error;
  }

  const examplesFile = join(out, runFiles.examples);
  const exportsSummary: PipelineManifest['exports'] = [];
  // Each format is written into a staging folder beside `exports/` and moved into place when complete, so
  // `exports/` (which trainers read as a folder) never holds a temporary file, even after a SIGKILL.
  const staging = join(out, runFiles.staging);
  await rm(staging, { recursive: true, force: true });
  await removePartials(join(out, 'exports'));
  // Every sink is open at once, so the examples are read (and resolved through the sidecar) once for all.
  const targets = [];
  for (const [format, configured] of exportsOf(config)) {
    const { folder, options: exportOptions } = exportTarget(format, configured);
    const exporter = dependencies.exporters[format];
    if (!exporter) throw new HarnessAugmentError(`no exporter for format "${format}"`, { kind: 'usage' });
    targets.push({ format, folder, exporter, exportOptions });
  }
  const sinks: ExportSink[] = [];
  try {
    for (const target of targets) {
      options.onProgress?.({ stage: 'export', counts, detail: target.folder });
      sinks.push(await target.exporter.open(join(staging, target.folder), target.exportOptions));
    }
    for await (const example of readTrainingExamples(examplesFile))
      for (const sink of sinks) await sink.write(example);
  } catch (error) {
    for (const sink of sinks) await sink.abort?.();
    throw error;
  }
  for (const [index, { format, folder }] of targets.entries()) {
    const sink = sinks[index] as ExportSink;
    const staged = join(staging, folder);
    const final = join(out, 'exports', folder);
    const summary = await sink.close();
    await rm(final, { recursive: true, force: true });
    await makeFolder(dirname(final));
    await rename(staged, final);
    summary.files = summary.files.map((file) =>
      file.startsWith(`${staged}/`) || file === staged ? `${final}${file.slice(staged.length)}` : file,
    );
    // What a format could not hold, with the reason, beside (not inside) the export folder that trainers read.
    if (summary.rejected > 0) {
      const rejectsFile = join(out, 'export-rejects', `${folder}.jsonl`);
      await makeFolder(dirname(rejectsFile));
      await writeFileAtomic(
        rejectsFile,
        (summary.rejects ?? [])
          .map((reject) => `${JSON.stringify({ id: reject.id, reason: reject.reason })}\n`)
          .join(''),
      );
      summary.files.push(rejectsFile);
    }
    exportsSummary.push({
      format,
      ...(folder === format ? {} : { folder }),
      rows: summary.rows,
      rejected: summary.rejected,
      files: await Promise.all(summary.files.map((file) => describeFile(out, file))),
    });
  }

  let bench: PipelineManifest['bench'];
  if (config.bench) {
    options.onProgress?.({ stage: 'bench', counts });
    const { plan: benchPlan } = await resolvePolicy(config.bench.policy, { registry: dependencies.registry });
    const rows: string[] = [];
    const rejects: string[] = [];
    for await (const row of generateBench(base, readBenchItems(config.bench.items), {
      plan: benchPlan,
      variants: config.bench.variants,
      seed,
      onReject: (reject) => rejects.push(`${JSON.stringify(reject)}\n`),
    }))
      rows.push(`${JSON.stringify(row)}\n`);
    await makeFolder(join(out, 'bench'));
    const rowsFile = join(out, 'bench', 'rows.jsonl');
    await writeFileAtomic(rowsFile, rows.join(''));
    const benchFiles = [rowsFile];
    if (rejects.length > 0) {
      const rejectsFile = join(out, 'bench', 'rejects.jsonl');
      await writeFileAtomic(rejectsFile, rejects.join(''));
      benchFiles.push(rejectsFile);
    }
    bench = {
      rows: rows.length,
      rejected: rejects.length,
      files: await Promise.all(benchFiles.map((file) => describeFile(out, file))),
    };
  }

  let opd: PipelineManifest['opd'];
  if (config.opd) {
    options.onProgress?.({ stage: 'opd', counts });
    const summary = await runOpd(config.opd, join(out, 'opd'), shard ? { shard } : {});
    opd = {
      teacher: summary.teacher,
      student: summary.student,
      read: summary.read,
      rows: summary.rows,
      rejected: summary.rejected,
      byReason: summary.byReason,
      files: await Promise.all(summary.files.map((file) => describeFile(out, file))),
    };
  }

  let rl: PipelineManifest['rl'];
  if (config.rl) {
    options.onProgress?.({ stage: 'rl', counts });
    const scenario = dependencies.scenario!;
    const plan = await planRlRows({
      ...(shard ? { shard } : {}),
      scenario,
      harness: base,
      config: config.rl,
      seed,
      registry: dependencies.registry,
      ...(dependencies.hookChecks ? { hookChecks: dependencies.hookChecks } : {}),
      ...(config.maxStepsPerTurn !== undefined ? { maxStepsPerTurn: config.maxStepsPerTurn } : {}),
    });
    const rlDir = join(out, 'rl');
    await makeFolder(rlDir);
    const rowsFile = join(rlDir, 'rows.jsonl');
    await writeFileAtomic(rowsFile, plan.rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
    const formats: Array<{ format: string; files: OutputFile[] }> = [];
    for (const format of config.rl.formats) {
      const exporter = dependencies.rlExporters?.[format];
      if (!exporter)
        throw new HarnessAugmentError(`no RL exporter for format "${format}"`, { kind: 'usage' });
      const files = await exporter.write(plan.rows, join(rlDir, format), {
        envURL: config.rl.envURL,
        groupSize: config.rl.groupSize,
      });
      formats.push({ format, files: await Promise.all(files.map((file) => describeFile(out, file))) });
    }
    rl = {
      scenario: scenario.name,
      seed: String(config.rl.seed ?? seed),
      groupSize: config.rl.groupSize,
      harnessPer: config.rl.harnessPer,
      segments: config.rl.segments,
      counts: plan.counts,
      files: [await describeFile(out, rowsFile)],
      formats,
    };
  }

  const manifest: PipelineManifest = {
    tool: { name: 'harness-augment', version },
    runHash,
    seed,
    harness: { id: base.id, hash: baseHash },
    inputs: manifestInputs(config.inputs, out),
    policy: {
      name: config.augment.policy,
      severity,
      variants: config.augment.variants,
      includeOriginal: config.augment.includeOriginal,
    },
    teachers: { exact: dependencies.teachers.exact.name, regenerate: dependencies.teachers.regenerate.name },
    judge: dependencies.judge.name,
    ...(options.shard ? { shard: options.shard } : {}),
    counts: { ...counts, read: counts.tasks },
    files: [
      await describeFile(out, examplesFile),
      await describeFile(out, join(out, runFiles.rejects)),
      ...(inline ? [] : [await describeFile(out, variantsFile)]),
    ],
    exports: exportsSummary,
    ...(bench ? { bench } : {}),
    ...(opd ? { opd } : {}),
    ...(rl ? { rl } : {}),
  };
  await rm(staging, { recursive: true, force: true });
  await writeFileAtomic(join(out, runFiles.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Removes temporary `*.partial` and `*.tmp` files that an older, killed run left under a folder. */
async function removePartials(folder: string): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isFile() && /\.(partial|tmp)$/.test(entry.name))
      await rm(join(entry.parentPath ?? (entry as { path?: string }).path ?? folder, entry.name), {
        force: true,
      });
  }
}

/**
 * Reads a finished run's manifest.
 *
 * @example
 * const manifest = await readManifest('out/run');
 */
export async function readManifest(out: string): Promise<PipelineManifest> {
  return JSON.parse(await readFile(join(out, runFiles.manifest), 'utf8')) as PipelineManifest;
}

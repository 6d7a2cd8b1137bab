import { readFile, rm } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { resolvePolicy } from '../augment/resolve-policy.js';
import { readSidecarHashes } from '../augment/variant-sidecar.js';
import { generateBench } from '../bench/generate.js';
import { readBenchItems } from '../bench/items.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { jsonLine, writeJsonLines } from '../harness/json-lines.js';
import { type RunContext, runContextOf } from '../harness/run-context.js';
import { makeFolder, writeFileAtomic } from '../harness/write-file-atomic.js';
import { checkShard } from '../runtime/shard.js';
import { version } from '../version.js';
import { openRunFiles, type RunCounts, runFiles } from './checkpoint.js';
import { exportsOf, exportTarget, type PipelineConfig } from './config.js';
import { createExampleWriter } from './example-sidecar.js';
import { type ExportEntry, runExportStage } from './export-stage.js';
import { readInputs } from './inputs.js';
import type { JobQueueV1 } from './job-queue.js';
import { type OpdSummary, runOpd } from './opd.js';
import { describeFile, type OutputFile } from './output-file.js';
import { outputFolderId } from './output-folder-id.js';
import { runSftOnQueue } from './queued-sft.js';
import { planRlRows, type RlPlan } from './rl.js';
import { lockRunFolder, type RunLockHolder } from './run-lock.js';
import { runSft, type UnitResult } from './sft.js';
import { prepareSftRun, sftUnitIndexes } from './sft-run.js';
import type { PipelineDependencies } from './spec.js';

export type { OutputFile } from './output-file.js';

export type { PipelineDependencies } from './spec.js';

/**
 * How `runPipeline` runs: resume, inline harnesses, a shard, an abort signal, a job queue for the SFT units.
 */
export interface PipelineRunOptions {
  /** Continue an interrupted run from its checkpoint. */
  resume?: boolean;
  /** Write whole examples (tools and system prompt) instead of naming their harness in `variants.jsonl`. */
  inlineHarness?: boolean;
  shard?: { index: number; count: number };
  signal?: AbortSignal;
  /** Run the SFT stage's units on this queue's workers instead of in this process; the output is the same. */
  queue?: JobQueueV1;
  /** Told when the output folder's lock was left by a run that is gone (and is taken over). */
  onStaleLock?: (stale: RunLockHolder, file: string) => void;
  onProgress?: (event: {
    stage: 'sft' | 'export' | 'bench' | 'opd' | 'rl';
    counts: RunCounts;
    detail?: string;
  }) => void;
}

/**
 * The run's `manifest.json`: the tool and run hash, seed, harness, inputs, policy, teachers, counts and
 * files.
 */
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
  exports: ExportEntry[];
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
    /** Episodes whose states were left out: an input hook ends them at reset (`RlPlan.endedAtReset`). */
    endedAtReset: string[];
    /** Operators of the policy left out of the variants: they change what the hooks enforce. */
    leftOut: string[];
    files: OutputFile[];
    /**
     * Each trainer's files and rows; `rows + rejected` is every planned row, and `rejects` says why rows
     * were left out (TRL: a harness state whose tools cannot be Python methods).
     */
    formats: Array<{
      format: string;
      rows: number;
      rejected: number;
      rejects?: Array<{ reason: string; rows: number }>;
      files: OutputFile[];
    }>;
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
 * Runs the configured pipeline into `config.out`, holding the folder's run lock (`run.lock`) meanwhile: a
 * second run on the same folder is refused with its holder named.
 *
 * @example
 * const manifest = await runPipeline(await loadPipelineConfig('pipeline.yaml'), dependencies, { resume: true });
 * // In a run of your own (its hook checks, its memory budget), shared by every stage:
 * await runPipeline(config, { ...dependencies, run: createRunContext({ hookChecks, memoryBytes: 64 << 20 }) });
 */
export async function runPipeline(
  config: PipelineConfig,
  dependencies: PipelineDependencies,
  options: PipelineRunOptions = {},
): Promise<PipelineManifest> {
  checkShard(options.shard);
  // The one run of the pipeline, where it starts (or the caller's): its inputs, SFT, bench and RL stages
  // derive their facts in it.
  const run = runContextOf(dependencies.run, dependencies.hookChecks);
  // Refused before any work: the RL stage plays episodes, so it needs a scenario.
  if (config.rl && !dependencies.scenario)
    throw new HarnessAugmentError(
      'rl: the RL stage plays a scenario; pass dependencies.scenario (the CLI plays the replay scenario over inputs.trajectories) or set inputs.simulate.scenario',
      {
        kind: 'usage',
        issues: [{ code: 'rl_needs_scenario', path: ['rl'], message: 'no scenario to play the RL episodes' }],
      },
    );
  // Export options are configuration: a bad one (or a family the rows cannot carry calls to) is refused
  // before any work, not after the SFT stage.
  for (const [format, configured] of exportsOf(config)) {
    const exporter = dependencies.exporters[format];
    if (!exporter) throw new HarnessAugmentError(`no exporter for format "${format}"`, { kind: 'usage' });
    exporter.checkOptions?.(exportTarget(format, configured).options);
  }
  await makeFolder(config.out);
  const lock = await lockRunFolder(config.out, options.onStaleLock ? { onStale: options.onStaleLock } : {});
  try {
    return await runLocked(config, dependencies, run, options);
  } finally {
    await lock.release();
  }
}

async function runLocked(
  config: PipelineConfig,
  dependencies: PipelineDependencies,
  run: RunContext,
  options: PipelineRunOptions,
): Promise<PipelineManifest> {
  const shard = options.shard;
  const sft = await prepareSftRun(config, { ...dependencies, run }, shard);
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
            folder: await outputFolderId(out),
            ...(shard ? { shard } : {}),
            units: sftUnitIndexes(sft, config, dependencies, {
              ...(shard ? { shard } : {}),
              skip: files.done,
            }),
            ...signal,
          })
        : runSft(readInputs(config, base, run, shard, dependencies.scenario), {
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
            rejects: result.reject ? [jsonLine(result.reject)] : [],
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
  const staging = join(out, runFiles.staging);
  const exportsSummary = await runExportStage(config, dependencies.exporters, {
    onOpen: (folder) => options.onProgress?.({ stage: 'export', counts, detail: folder }),
  });

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
      ...(config.bench.pool > 0 ? { pool: { size: config.bench.pool } } : {}),
      run,
      onReject: (reject) => rejects.push(jsonLine(reject)),
    }))
      rows.push(jsonLine(row));
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
      run,
      ...(config.maxStepsPerTurn !== undefined ? { maxStepsPerTurn: config.maxStepsPerTurn } : {}),
    });
    const rlDir = join(out, 'rl');
    await makeFolder(rlDir);
    const rowsFile = join(rlDir, 'rows.jsonl');
    await writeJsonLines(rowsFile, plan.rows);
    const formats: NonNullable<PipelineManifest['rl']>['formats'] = [];
    for (const format of config.rl.formats) {
      const exporter = dependencies.rlExporters?.[format];
      if (!exporter)
        throw new HarnessAugmentError(`no RL exporter for format "${format}"`, { kind: 'usage' });
      const summary = await exporter.write(plan.rows, join(rlDir, format), {
        envURL: config.rl.envURL,
        groupSize: config.rl.groupSize,
      });
      formats.push({
        format,
        rows: summary.rows,
        rejected: summary.rejected,
        ...(summary.rejected > 0 ? { rejects: summary.rejects } : {}),
        files: await Promise.all(summary.files.map((file) => describeFile(out, file))),
      });
    }
    rl = {
      scenario: scenario.name,
      seed: String(config.rl.seed ?? seed),
      groupSize: config.rl.groupSize,
      harnessPer: config.rl.harnessPer,
      segments: config.rl.segments,
      counts: plan.counts,
      endedAtReset: plan.endedAtReset,
      leftOut: plan.leftOut,
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

/**
 * Reads a finished run's manifest.
 *
 * @example
 * const manifest = await readManifest('out/run');
 */
export async function readManifest(out: string): Promise<PipelineManifest> {
  return JSON.parse(await readFile(join(out, runFiles.manifest), 'utf8')) as PipelineManifest;
}

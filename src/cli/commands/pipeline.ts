import { resolve } from 'node:path';
import type { Command } from 'commander';
import { buildPipelineDependencies } from '../../adapters/pipeline-dependencies.js';
import { loadPipelineConfig } from '../../pipeline/config.js';
import { runPipeline } from '../../pipeline/run-pipeline.js';
import { builtinRegistry } from '../operators-registry.js';
import { createProgress } from '../progress.js';
import { pipelineScenario } from '../scenario-option.js';
import { parseShard } from '../shard.js';

interface PipelineRunCliOptions {
  resume?: boolean;
  shard?: string;
  out?: string;
}

export function registerPipeline(program: Command): void {
  const pipeline = program
    .command('pipeline')
    .description('run the training-data pipeline from a YAML config');
  pipeline
    .command('run')
    .description(
      'base tasks × variants → teacher → certificate/judge → collapsing → trainer exports + manifest',
    )
    .argument('<config>', 'pipeline configuration (YAML or JSON)')
    .option('--resume', 'continue an interrupted run from its checkpoint in the output folder')
    .option(
      '--shard <i/n>',
      'only the tasks whose position modulo n is i (run each shard into its own --out)',
    )
    .option('--out <dir>', 'output folder (overrides the config’s `out`)')
    .action(async (file: string, options: PipelineRunCliOptions) => {
      const started = Date.now();
      const config = await loadPipelineConfig(file);
      if (options.out) config.out = resolve(options.out);
      const shard = parseShard(options.shard);
      const scenario = await pipelineScenario(config);
      const dependencies = buildPipelineDependencies(config, {
        registry: await builtinRegistry(),
        ...(scenario ? { scenario } : {}),
      });
      const progress = createProgress('pipeline');
      const manifest = await runPipeline(config, dependencies, {
        ...(options.resume ? { resume: true } : {}),
        ...(shard ? { shard } : {}),
        onProgress: ({ stage, counts, detail }) =>
          progress.update(
            stage === 'sft'
              ? `${counts.tasks} tasks, ${counts.examples} examples, ${counts.rejected} rejected`
              : `${stage} ${detail ?? ''}`,
          ),
      }).finally(async () => {
        progress.done();
        await scenario?.close?.();
      });
      const { counts } = manifest;
      const reasons = Object.entries(counts.byReason)
        .map(([reason, n]) => `${reason} ${n}`)
        .join(', ');
      const lines = [
        `tasks: ${counts.tasks}; units: ${counts.units} = ${counts.examples} examples + ${counts.rejected} rejected${reasons ? ` (${reasons})` : ''}`,
        `teachers: ${Object.entries(counts.teachers)
          .map(([name, n]) => `${name} ${n}`)
          .join(', ')}; retry traces collapsed in ${counts.collapsed}, kept whole in ${counts.fullTraces}`,
        ...manifest.files.map((entry) => `${config.out}/${entry.path}  (${entry.bytes} bytes)`),
        ...manifest.exports.map(
          (entry) =>
            `${entry.format.padEnd(13)} ${entry.rows} rows${entry.rejected > 0 ? `, ${entry.rejected} rejected` : ''}: ${entry.files.map((f) => `${config.out}/${f.path}`).join(', ')}`,
        ),
        ...(manifest.bench
          ? [
              `bench         ${manifest.bench.rows} rows: ${manifest.bench.files.map((f) => `${config.out}/${f.path}`).join(', ')}`,
            ]
          : []),
        `manifest: ${config.out}/manifest.json  (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      ];
      for (const [name, client] of Object.entries(dependencies.clients)) {
        const stats = client.stats();
        lines.push(`${name} endpoint: ${stats.requests} requests, ${stats.retries} retries`);
      }
      process.stdout.write(`${lines.join('\n')}\n`);
      if (counts.rejected > 0 && counts.examples === 0) process.exitCode = 1;
    });
}

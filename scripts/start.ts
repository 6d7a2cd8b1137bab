// `npm start`: the main job on the bundled live-stream fixture. It validates the harness and its
// trajectories, runs the bundled pipeline (examples/pipeline/livestream.yaml: the simulator's oracle plays
// the fixture's episodes, the replay teacher carries each to 4 certified `hat` variants, hook-retry traces
// are collapsed, every trainer export and the variant benchmark set are written), renders the system
// prompt, exports the tools and skills, and says where each file is and what it holds. No network, no GPU.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { buildPipelineDependencies } from '../src/adapters/pipeline-dependencies.js';
import { builtinRegistry } from '../src/cli/operators-registry.js';
import { pipelineScenario } from '../src/cli/scenario-option.js';
import {
  exportMcpTools,
  exportOpenAITools,
  formatIssue,
  HarnessAugmentError,
  hashHarness,
  loadHarnessFile,
  readDocument,
  renderSystemPrompt,
  validateTrajectoriesFile,
  writeSkillsFolder,
} from '../src/index.js';
import { loadPipelineConfig, runPipeline } from '../src/pipeline/index.js';
import { createStageMeter, formatStages } from './start-stages.js';

const fixture = 'fixtures/livestream';
const out = 'out';
const configFile = 'examples/pipeline/livestream.yaml';

const exportWhat: Record<string, string> = {
  trl: 'TRL SFTTrainer JSONL (messages + tools)',
  axolotl: 'Axolotl chat_template JSONL and its datasets: entry',
  'llama-factory': 'LLaMA-Factory sharegpt JSONL and its dataset_info.json entry',
  openai: 'OpenAI fine-tuning JSONL',
  verl: 'veRL multi-turn SFT parquet and its dataset class',
  'trl-one-call': 'TRL rows with one tool call per assistant message (Llama 3.x, gpt-oss)',
  'trl-string-arguments': 'TRL rows with arguments as JSON text (DeepSeek-V3, DeepSeek-R1-distill)',
  'trl-lfm2': 'TRL rows with the calls also written as text (LFM2 v1)',
  'trl-mistral': 'TRL rows with 9-character call ids (Mistral)',
  'trl-prompt-completion': 'TRL prompt-completion rows, one per assistant message (Llama 3.1/3.2, Gemma 4)',
  'trl-mistral-prompt-completion': 'TRL prompt-completion rows for Mistral SFT (tokenized by mistral-common)',
  'axolotl-one-call': 'Axolotl rows with one tool call per assistant message (Llama 3.1/3.2)',
};

async function main(): Promise<number> {
  const started = Date.now();
  // CPU since the process started (module loading) is `start-up`'s; each later stage is charged its own.
  const meter = createStageMeter('start-up');
  meter.enter('validate');
  const harnessFile = join(fixture, 'harness.yaml');
  const trajectoriesFile = join(fixture, 'trajectories.jsonl');
  const harness = await loadHarnessFile(harnessFile);
  const hashes = hashHarness(harness);
  console.log(`harness   ${harnessFile}: "${harness.id}" ${hashes.harness.slice(0, 19)}…`);
  console.log(
    `          ${harness.skills.items.length} skills, ${harness.hooks.items.length} hooks, ${harness.prompt.sections.length} prompt sections, ${harness.tools.items.length} tools`,
  );

  const report = await validateTrajectoriesFile(trajectoriesFile, harness);
  for (const issue of report.issues.slice(0, 20)) console.log(`  ${formatIssue(issue)}`);
  console.log(
    `trajectories ${trajectoriesFile}: ${report.read} read, ${report.valid} valid, ${report.invalid} invalid; ` +
      `${report.stats.toolCalls} tool calls, ${report.stats.skillLoads} skill loads, ${report.stats.hookRejections} hook rejections`,
  );

  meter.enter('sft');
  console.log(`pipeline  ${configFile} (about a minute)…`);
  const config = await loadPipelineConfig(configFile);
  const scenario = await pipelineScenario(config);
  const manifest = await runPipeline(
    config,
    buildPipelineDependencies(config, {
      registry: await builtinRegistry(),
      ...(scenario ? { scenario } : {}),
    }),
    // The last stage's CPU includes the manifest (the sha256 of every file written).
    { onProgress: ({ stage }) => meter.enter(stage) },
  );
  const { counts } = manifest;
  console.log(
    `          ${counts.tasks} tasks × (base + ${manifest.policy.variants} hat variants) = ${counts.units} units: ` +
      `${counts.examples} examples, ${counts.rejected} rejected; retry traces collapsed in ${counts.collapsed}, kept whole in ${counts.fullTraces}`,
  );
  const at = (path: string) => relative('.', join(config.out, path));
  const written: Array<[string, string]> = [
    [at('examples.jsonl'), `${counts.examples} training examples (messages, tools, provenance)`],
    [at('rejects.jsonl'), `${counts.rejected} rejected units with their reasons`],
    ...manifest.exports.map((entry): [string, string] => [
      `${at(`exports/${entry.folder ?? entry.format}`)}/`,
      `${exportWhat[entry.folder ?? entry.format] ?? exportWhat[entry.format] ?? entry.format}: ${entry.rows} rows${entry.rejected ? `, ${entry.rejected} rejected (${at(`export-rejects/${entry.folder ?? entry.format}.jsonl`)})` : ''}`,
    ]),
    ...(manifest.bench
      ? [
          [
            at('bench/rows.jsonl'),
            `${manifest.bench.rows} variant benchmark rows (${config.bench?.variants} variants + base per item)`,
          ] as [string, string],
        ]
      : []),
    ...(manifest.opd
      ? [
          [
            `${at('opd')}/`,
            `OPD: ${manifest.opd.rows.distillation} prompt-only rows (DistillationTrainer), ${manifest.opd.rows.gkd} messages rows (GKDTrainer), teacher ${manifest.opd.teacher}`,
          ] as [string, string],
        ]
      : []),
    ...(manifest.rl
      ? [
          [
            `${at('rl')}/`,
            `RL: ${manifest.rl.counts.groups} GRPO groups × ${manifest.rl.groupSize} (${manifest.rl.counts.augmented} augmented, ${manifest.rl.counts.original} original states) for ${manifest.rl.formats.map((entry) => (entry.rejected > 0 ? `${entry.format} (${entry.rejected} of ${entry.rows + entry.rejected} rows left out: rl/${entry.format}/rejects.jsonl says why)` : entry.format)).join(', ')}`,
          ] as [string, string],
        ]
      : []),
    [at('manifest.json'), 'counts, reject reasons, seeds, hashes, tool version, sha256 of every file'],
  ];

  meter.enter('files');
  await mkdir(out, { recursive: true });
  const { value: context } = await readDocument(join(fixture, 'contexts', 'example.json'));
  const write = async (name: string, content: string, what: string) => {
    await writeFile(join(out, name), content.endsWith('\n') ? content : `${content}\n`, 'utf8');
    written.push([join(out, name), what]);
  };
  await write(
    'system-prompt.md',
    renderSystemPrompt(harness, context as Record<string, unknown>),
    'the system prompt rendered for contexts/example.json',
  );
  await write(
    'tools.openai.json',
    JSON.stringify(exportOpenAITools(harness.tools.items), null, 2),
    'the tools as an OpenAI `tools` array',
  );
  await write(
    'tools.mcp.json',
    JSON.stringify(exportMcpTools(harness.tools.items), null, 2),
    'the tools as an MCP tools/list result',
  );
  await write(
    'hashes.json',
    JSON.stringify({ id: harness.id, hashes }, null, 2),
    'content hashes of the harness and its parts',
  );
  const skills = await writeSkillsFolder(harness.skills.items, join(out, 'skills'));
  written.push([join(out, 'skills/'), `${skills.length} skills as Agent Skills SKILL.md files`]);

  console.log('\nwritten:');
  const width = Math.max(...written.map(([file]) => file.length));
  for (const [file, what] of written) console.log(`  ${file.padEnd(width)}  ${what}`);
  console.log(`\ndone in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(formatStages(meter.finish()));
  return report.invalid === 0 && counts.rejected === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (HarnessAugmentError.isInstance(error)) {
      console.error(`npm start: ${error.message}`);
      for (const issue of error.issues) console.error(`  ${formatIssue(issue)}`);
    } else console.error(error);
    process.exitCode = 1;
  },
);

// `npm start`: the main job on the bundled live-stream fixture. It validates the harness and its
// trajectories, augments them with the `hat` policy into certified variants, renders the system prompt,
// exports the tools and skills, and says where each file is.
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { builtinOperators } from '../perturbations/index.js';
import {
  type AugmentReject,
  augment,
  compilePolicy,
  createRegistry,
  dimensions,
  exportMcpTools,
  exportOpenAITools,
  formatIssue,
  HarnessAugmentError,
  hashHarness,
  loadHarnessFile,
  parsePolicy,
  presets,
  readDocument,
  readJsonl,
  renderSystemPrompt,
  validateTrajectoriesFile,
  writeSkillsFolder,
} from '../src/index.js';

const fixture = 'fixtures/livestream';
const out = 'out';

async function main(): Promise<number> {
  const started = Date.now();
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

  await mkdir(out, { recursive: true });
  const variants = 4;
  const plan = compilePolicy(parsePolicy(presets.hat), createRegistry(builtinOperators));
  const rowsFile = join(out, 'augmented.jsonl');
  const rowsStream = createWriteStream(rowsFile);
  const rejects: AugmentReject[] = [];
  const coverage = new Map(dimensions.map((dimension) => [dimension, { planned: 0, changed: 0 }]));
  let rows = 0;
  for await (const row of augment(harness, readJsonl(trajectoriesFile), {
    plan,
    variants,
    seed: 42,
    onReject: (reject) => rejects.push(reject),
  })) {
    rows++;
    for (const dimension of row.provenance.planned)
      (coverage.get(dimension) as { planned: number }).planned++;
    for (const dimension of row.provenance.changed)
      (coverage.get(dimension) as { changed: number }).changed++;
    if (!rowsStream.write(`${JSON.stringify(row)}\n`))
      await new Promise<void>((resolve) => rowsStream.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => rowsStream.end(() => resolve()));
  console.log(
    `augment   policy hat, ${variants} variants, seed 42: ${rows} certified rows, ${rejects.length} rejected`,
  );
  console.log(
    `          changed / chosen: ${[...coverage].map(([dimension, { planned, changed }]) => `${dimension} ${changed}/${planned}`).join(', ')}`,
  );

  const { value: context } = await readDocument(join(fixture, 'contexts', 'example.json'));
  const written: Array<[string, string]> = [
    [rowsFile, `${rows} (variant harness, rewritten trajectory) rows, each certified`],
  ];
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
  for (const [file, what] of written) console.log(`  ${file.padEnd(24)} ${what}`);
  console.log(`\ndone in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return report.invalid === 0 && rejects.length === 0 ? 0 : 1;
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

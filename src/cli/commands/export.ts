import type { Command } from 'commander';
import { exportMcpTools, exportOpenAITools, writeSkillsFolder } from '../../harness/importers/index.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { loadHarnessFile } from '../../harness/parse-harness.js';
import { emit } from '../io.js';

export function registerExport(program: Command): void {
  const command = program
    .command('export')
    .description('write the tools or skills of a harness in another format');
  command
    .command('mcp')
    .description('tools as an MCP tools/list result')
    .argument('<harness>', 'harness file')
    .option('-o, --output <file>', 'JSON file to write; standard output when absent')
    .action(async (harnessFile: string, options: { output?: string }) => {
      const harness = await loadHarnessFile(harnessFile);
      await emit(JSON.stringify(exportMcpTools(harness.tools.items), null, 2), options.output);
    });
  command
    .command('openai-tools')
    .description('tools as an OpenAI Chat Completions `tools` array')
    .argument('<harness>', 'harness file')
    .option('-o, --output <file>', 'JSON file to write; standard output when absent')
    .action(async (harnessFile: string, options: { output?: string }) => {
      const harness = await loadHarnessFile(harnessFile);
      await emit(JSON.stringify(exportOpenAITools(harness.tools.items), null, 2), options.output);
    });
  command
    .command('skills')
    .description('skills as a folder of Agent Skills (<name>/SKILL.md)')
    .argument('<harness>', 'harness file')
    .requiredOption('-o, --output <folder>', 'folder to write the skills into')
    .action(async (harnessFile: string, options: { output: string }) => {
      const harness = await loadHarnessFile(harnessFile);
      if (harness.skills.items.length === 0) {
        throw new HarnessAugmentError(`${harnessFile}: the harness has no skills to export`, {
          kind: 'usage',
        });
      }
      const written = await writeSkillsFolder(harness.skills.items, options.output);
      process.stdout.write(`${written.length} skill(s) written to ${options.output}\n`);
    });
}

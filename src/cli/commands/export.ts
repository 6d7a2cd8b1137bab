import type { Command } from 'commander';
import { exportMcpTools, exportOpenAITools, writeSkillsFolder } from '../../harness/importers/index.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { loadHarnessFile } from '../../harness/parse-harness.js';
import { outOption, prepareOutputFolder, printResult, writeProduct } from '../output.js';

export function registerExport(program: Command): void {
  const command = program
    .command('export')
    .description('write the tools or skills of a harness in another format');
  command
    .command('mcp')
    .description('tools as an MCP tools/list result')
    .argument('<harness>', 'harness file')
    .addOption(outOption('file', 'JSON file to write; standard output when absent'))
    .action(async (harnessFile: string, options: { out?: string }) => {
      const harness = await loadHarnessFile(harnessFile);
      const tools = exportMcpTools(harness.tools.items);
      await writeProduct('tools', tools, JSON.stringify(tools, null, 2), options.out);
    });
  command
    .command('openai-tools')
    .description('tools as an OpenAI Chat Completions `tools` array')
    .argument('<harness>', 'harness file')
    .addOption(outOption('file', 'JSON file to write; standard output when absent'))
    .action(async (harnessFile: string, options: { out?: string }) => {
      const harness = await loadHarnessFile(harnessFile);
      const tools = exportOpenAITools(harness.tools.items);
      await writeProduct('tools', tools, JSON.stringify(tools, null, 2), options.out);
    });
  command
    .command('skills')
    .description('skills as a folder of Agent Skills (<name>/SKILL.md)')
    .argument('<harness>', 'harness file')
    .addOption(outOption('folder', 'folder to write the skills into', { required: true }))
    .action(async (harnessFile: string, options: { out: string }) => {
      const harness = await loadHarnessFile(harnessFile);
      if (harness.skills.items.length === 0) {
        throw new HarnessAugmentError(`${harnessFile}: the harness has no skills to export`, {
          kind: 'usage',
        });
      }
      await prepareOutputFolder(options.out);
      const written = await writeSkillsFolder(harness.skills.items, options.out);
      printResult(
        { out: options.out, files: written },
        `${written.length} skill(s) written to ${options.out}`,
      );
    });
}

import type { Command } from 'commander';
import { hashHarness } from '../../harness/hash.js';
import { loadHarnessFile } from '../../harness/parse-harness.js';
import { printResult } from '../output.js';

export function registerHash(program: Command): void {
  program
    .command('hash')
    .description('print the content hashes of a harness and of its four parts')
    .argument('<harness>', 'harness file')
    .action(async (harnessFile: string) => {
      const harness = await loadHarnessFile(harnessFile);
      const hashes = hashHarness(harness);
      const versions = {
        skills: harness.skills.version,
        hooks: harness.hooks.version,
        prompt: harness.prompt.version,
        tools: harness.tools.version,
      };
      const lines = [`harness  ${hashes.harness}  ${harness.id}`];
      for (const part of ['skills', 'hooks', 'prompt', 'tools'] as const) {
        lines.push(`${part.padEnd(8)} ${hashes[part]}  v${versions[part]}`);
      }
      printResult({ id: harness.id, hashes, versions }, lines);
    });
}

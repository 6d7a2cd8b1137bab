import type { Command } from 'commander';
import { readDocument } from '../../harness/documents.js';
import { HarnessAugmentError } from '../../harness/issues.js';
import { loadHarnessFile } from '../../harness/parse-harness.js';
import { renderSystemPrompt } from '../../harness/render-prompt.js';
import { outOption, prepareOutputFile, writeProduct } from '../output.js';

export function registerRender(program: Command): void {
  program
    .command('render')
    .description('render the system prompt of a harness for a request context')
    .argument('<harness>', 'harness file')
    .option('-c, --context <file>', 'request context as JSON or YAML (room state, products, …)')
    .addOption(
      outOption(
        'file',
        'write the prompt to a file instead of standard output (either way exactly the system message, no newline added)',
      ),
    )
    .action(async (harnessFile: string, options: { context?: string; out?: string }) => {
      if (options.out !== undefined) await prepareOutputFile(options.out);
      const harness = await loadHarnessFile(harnessFile);
      let context: Record<string, unknown> = {};
      if (options.context) {
        const { value } = await readDocument(options.context);
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          throw new HarnessAugmentError(`${options.context}: a request context must be an object`, {
            kind: 'usage',
          });
        }
        context = value as Record<string, unknown>;
      }
      const prompt = renderSystemPrompt(harness, context);
      // Byte for byte the system message a trajectory under this harness carries: no newline added.
      await writeProduct('prompt', prompt, prompt, options.out, { exact: true });
    });
}

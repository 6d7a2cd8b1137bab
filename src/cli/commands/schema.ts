import type { Command } from 'commander';
import { harnessJsonSchema } from '../../harness/harness-json-schema.js';
import { emit } from '../io.js';

export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description('print the JSON Schema of the harness file format')
    .option('-o, --output <file>', 'write to a file instead of standard output')
    .action(async (options: { output?: string }) => {
      await emit(JSON.stringify(harnessJsonSchema(), null, 2), options.output);
    });
}

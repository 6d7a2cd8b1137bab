import type { Command } from 'commander';
import { harnessJsonSchema } from '../../harness/harness-json-schema.js';
import { outOption, writeProduct } from '../output.js';

export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description('print the JSON Schema of the harness file format')
    .addOption(outOption('file', 'write to a file instead of standard output'))
    .action(async (options: { out?: string }) => {
      const schema = harnessJsonSchema();
      await writeProduct('schema', schema, JSON.stringify(schema, null, 2), options.out);
    });
}

import type { Command } from 'commander';
import { z } from 'zod';
import { registryFromOptions, withOperatorsOption } from '../operators-registry.js';
import { printResult } from '../output.js';

export function registerOperators(program: Command): void {
  withOperatorsOption(program.command('operators'))
    .description(
      'list the perturbation operators (with --json: an array of { name, dimension, mode, version, needsExample, description, params })',
    )
    .action(async (options: { operators?: string[] }) => {
      const operators = (await registryFromOptions(options.operators)).list();
      const rows = operators.map((operator) => ({
        name: operator.id,
        dimension: operator.dimension,
        mode: operator.mode,
        version: operator.version,
        needsExample: operator.needsExample === true,
        description: operator.description,
        params: z.toJSONSchema(operator.params, { io: 'input' }),
      }));
      const lines: string[] = [];
      for (const row of rows) {
        const properties =
          (
            row.params as {
              properties?: Record<string, { default?: unknown; enum?: unknown[]; type?: string }>;
            }
          ).properties ?? {};
        const params = Object.entries(properties)
          .map(
            ([name, schema]) =>
              `${name}${schema.enum ? `=${schema.enum.join('|')}` : schema.type ? `:${schema.type}` : ''}${schema.default !== undefined ? ` (${JSON.stringify(schema.default)})` : ''}`,
          )
          .join(', ');
        lines.push(
          `${row.name.padEnd(34)} ${row.mode.padEnd(10)} ${row.description}${params ? `\n${' '.repeat(46)}params: ${params}` : ''}`,
        );
      }
      lines.push(`${rows.length} operators`);
      printResult(rows, lines);
    });
}

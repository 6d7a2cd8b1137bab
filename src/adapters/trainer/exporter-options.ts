// Exporter options are configuration: a bad value throws at once, naming the format and the option.
import type { z } from 'zod';
import { formatIssue, HarnessAugmentError } from '../../harness/issues.js';
import { fromZodIssues } from '../../harness/parse-harness.js';

/**
 * Parses exporter options with their schema; throws a usage error listing every bad option.
 *
 * @example
 * const options = parseExporterOptions('trl', TrlExportOptionsSchema, { argumentsEncoding: 'string' });
 */
export function parseExporterOptions<Schema extends z.ZodType>(
  format: string,
  schema: Schema,
  options: unknown,
): z.output<Schema> {
  const parsed = schema.safeParse(options ?? {});
  if (parsed.success) return parsed.data;
  const issues = fromZodIssues(parsed.error.issues);
  throw new HarnessAugmentError(
    `${format} export: bad options: ${issues.map((issue) => formatIssue(issue)).join('; ')}`,
    { kind: 'usage', issues },
  );
}

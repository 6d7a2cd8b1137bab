// The meaning judge's configuration: an endpoint as the pipeline's `judge.model` declares it, and how many
// pairs are asked at once. `hsa augment --judge <file>` reads it from a YAML or JSON file; a pipeline config
// holds it under `judge.meaning`.
import { z } from 'zod';
import { locateIssues, readDocument } from '../harness/documents.js';
import { formatIssue, HarnessAugmentError, type Issue } from '../harness/issues.js';
import { fromZodIssues } from '../harness/parse-harness.js';
import { EndpointSchema } from './endpoint-config.js';

/**
 * The schema of a meaning judge's configuration.
 *
 * @example
 * MeaningJudgeConfigSchema.parse({ endpoint: { baseURL: 'http://127.0.0.1:8000/v1', model: 'qwen3-32b' }, concurrency: 8 });
 */
export const MeaningJudgeConfigSchema = z.strictObject({
  endpoint: EndpointSchema,
  /** Pairs asked at once. */
  concurrency: z.number().int().min(1).max(256).default(8),
});

export type MeaningJudgeConfig = z.output<typeof MeaningJudgeConfigSchema>;

/**
 * Reads a meaning judge's configuration from a YAML or JSON file; a bad one is a `usage` error whose message
 * names the file, the line and the path of its first issue.
 *
 * @example
 * const config = await loadMeaningJudgeConfig('judge.yaml');
 */
export async function loadMeaningJudgeConfig(file: string): Promise<MeaningJudgeConfig> {
  const document = await readDocument(file);
  const parsed = MeaningJudgeConfigSchema.safeParse(document.value);
  if (parsed.success) return parsed.data;
  const issues = locateIssues(
    fromZodIssues(parsed.error.issues).map((issue) => ({ ...issue, file })),
    document,
  );
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  throw new HarnessAugmentError(`judge configuration: ${formatIssue(issues[0] as Issue)}${more}`, {
    kind: 'usage',
    issues,
  });
}

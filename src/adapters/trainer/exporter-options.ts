// Exporter options are configuration: a bad value throws at once, naming the format and the option.
import type { z } from 'zod';
import { formatIssue, HarnessAugmentError, type Issue } from '../../harness/issues.js';
import { fromZodIssues } from '../../harness/parse-harness.js';
import { chatTemplateRules, type ExportShape, familiesProblems } from './families.js';

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

/**
 * Refuses, as a usage error naming the format, an export declared (`families`) for chat templates that
 * cannot carry its tool calls: a template that drops or refuses calls, or one whose rules the options miss.
 *
 * @example
 * checkDeclaredFamilies('trl', ['llama3_1'], shape) // throws: llama3_1 (Llama 3.1) needs parallelCalls: split …
 */
export function checkDeclaredFamilies(
  format: string,
  families: readonly string[] | undefined,
  shape: ExportShape,
): void {
  const problems = familiesProblems(families ?? [], shape);
  if (problems.length === 0) return;
  throw new HarnessAugmentError(`${format} export: families: ${problems.join('; ')}`, {
    kind: 'usage',
    issues: problems.map((message) => ({ code: 'family_cannot_carry_calls', path: ['families'], message })),
  });
}

/**
 * Where two assistant messages follow each other in an example whose declared families refuse that
 * (Mistral's Jinja templates: "Conversation roles must alternate"): the issue, or undefined. They are a
 * hook-rejected attempt and its fallback; merging them would train on the attempt or lose it, so the
 * example is rejected, with the reason, rather than changed.
 *
 * @example
 * alternationIssue(['mistral'], messages) // { code: 'consecutive_assistant_messages', path: ['messages', 5], … }
 */
export function alternationIssue(
  families: readonly string[] | undefined,
  messages: ReadonlyArray<{ role: string }>,
): Issue | undefined {
  const strict = (families ?? []).filter((family) => chatTemplateRules.get(family)?.alternating);
  if (strict.length === 0) return undefined;
  const index = messages.findIndex(
    (message, at) => at > 0 && message.role === 'assistant' && messages[at - 1]?.role === 'assistant',
  );
  if (index < 0) return undefined;
  return {
    code: 'consecutive_assistant_messages',
    path: ['messages', index],
    message: `two assistant messages in a row (a hook-rejected attempt, then the fallback), which ${strict.join(', ')}'s template refuses ("Conversation roles must alternate")`,
  };
}

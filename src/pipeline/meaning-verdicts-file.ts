// The file of a run's meaning verdicts (`<rows without .jsonl>.judge.jsonl`): one line per pair the judge was
// asked about, with the judge's id and the two texts' hashes, appended with the rows they decided (so a
// resumed run cuts it back with them and reads it to ask nothing twice).
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { HarnessAugmentError } from '../harness/issues.js';
import { readJsonl } from '../trajectory/read-jsonl.js';
import type { MeaningVerdictLine } from './meaning-filter.js';

const VerdictLineSchema = z.strictObject({
  judge: z.string(),
  base: z.string(),
  variant: z.string(),
  same: z.boolean(),
  reason: z.string(),
});

/**
 * The verdicts file beside a rows file: `<rows without .jsonl>.judge.jsonl`.
 *
 * @example
 * meaningVerdictsPathOf('out/rows.jsonl') // 'out/rows.judge.jsonl'
 */
export function meaningVerdictsPathOf(rowsFile: string): string {
  return `${rowsFile.replace(/\.jsonl$/i, '')}.judge.jsonl`;
}

/**
 * Reads a verdicts file (none yet: no verdicts); a line that is not a verdict is a `usage` error with its line.
 *
 * @example
 * const known = await readMeaningVerdicts('out/rows.judge.jsonl');
 */
export async function readMeaningVerdicts(file: string): Promise<MeaningVerdictLine[]> {
  const lines: MeaningVerdictLine[] = [];
  if (!(await stat(file).catch(() => undefined))) return lines;
  for await (const record of readJsonl(file)) {
    const parsed = 'value' in record ? VerdictLineSchema.safeParse(record.value) : undefined;
    if (!parsed?.success)
      throw new HarnessAugmentError(`${file}:${record.line}: not a line of a judge verdicts file`, {
        kind: 'usage',
      });
    lines.push(parsed.data);
  }
  return lines;
}

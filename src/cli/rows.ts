// Finds rows of an augment output file by id, streaming, so a large file is never held in memory.
import type { AugmentRow } from '../augment/augment.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { readJsonl } from '../trajectory/read-jsonl.js';

/** Yields the rows of a file (all, or the one whose `id` or `variantId` matches). */
export async function* readRows(file: string, id?: string): AsyncGenerator<AugmentRow> {
  let found = false;
  for await (const record of readJsonl(file)) {
    if ('issue' in record)
      throw new HarnessAugmentError(`${file}:${record.line}: ${record.issue.message}`, { kind: 'usage' });
    const row = record.value as AugmentRow;
    if (id !== undefined && row.id !== id && row.variantId !== id) continue;
    found = true;
    yield row;
    if (id !== undefined) return;
  }
  if (id !== undefined && !found)
    throw new HarnessAugmentError(`${file}: no row has the id "${id}"`, { kind: 'usage' });
}

// Finds rows of an augment output file by id, streaming, so a large file is never held in memory; rows by
// reference are resolved through their sidecar (see src/augment/variant-sidecar.ts).
import type { AugmentRow } from '../augment/augment.js';
import { readAugmentedRows } from '../augment/variant-sidecar.js';
import { HarnessAugmentError } from '../harness/issues.js';

/** Yields the rows of a file (all, or the one whose `id` or `variantId` matches), inline. */
export async function* readRows(
  file: string,
  id?: string,
  sidecars?: readonly string[],
): AsyncGenerator<AugmentRow> {
  let found = false;
  for await (const { row } of readAugmentedRows(file, sidecars && sidecars.length > 0 ? { sidecars } : {})) {
    if (id !== undefined && row.id !== id && row.variantId !== id) continue;
    found = true;
    yield row;
    if (id !== undefined) return;
  }
  if (id !== undefined && !found)
    throw new HarnessAugmentError(`${file}: no row has the id "${id}"`, { kind: 'usage' });
}

/** The `--sidecar` option of the commands that read rows. */
export const sidecarOptionText =
  'the variants sidecar(s) of rows by reference (default: <rows without .jsonl>.variants.jsonl, else variants.jsonl beside the rows)';

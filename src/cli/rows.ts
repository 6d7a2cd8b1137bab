// Finds rows of an augment output file by id, streaming, so a large file is never held in memory; rows by
// reference are resolved through their sidecar (see src/augment/variant-sidecar.ts). A line that is not an
// augmented row (a plain trajectory, a bench item) is bad data, named with its line, not an internal error.
import { z } from 'zod';
import type { AugmentRow } from '../augment/augment.js';
import { readAugmentedRows } from '../augment/variant-sidecar.js';
import { HarnessAugmentError } from '../harness/issues.js';

/** The fields of an augmented row that the readers (explain, invert) rely on; the rest is passed through. */
const AugmentedRowShape = z.looseObject({
  id: z.string(),
  variantId: z.string(),
  harness: z.looseObject({}),
  trajectory: z.looseObject({ messages: z.array(z.unknown()) }),
  relabel: z.looseObject({ steps: z.array(z.looseObject({ type: z.string() })) }),
  provenance: z.looseObject({
    variantSeed: z.union([z.string(), z.number()]),
    ops: z.array(z.looseObject({})),
    skipped: z.array(z.looseObject({})),
  }),
});

/** Yields the rows of a file (all, or the one whose `id` or `variantId` matches), inline. */
export async function* readRows(
  file: string,
  id?: string,
  sidecars?: readonly string[],
): AsyncGenerator<AugmentRow> {
  let found = false;
  for await (const { row, line } of readAugmentedRows(
    file,
    sidecars && sidecars.length > 0 ? { sidecars } : {},
  )) {
    assertAugmentedRow(row, file, line);
    if (id !== undefined && row.id !== id && row.variantId !== id) continue;
    found = true;
    yield row;
    if (id !== undefined) return;
  }
  if (id !== undefined && !found)
    throw new HarnessAugmentError(`${file}: no row has the id "${id}"`, { kind: 'usage' });
}

function assertAugmentedRow(row: unknown, file: string, line: number): asserts row is AugmentRow {
  const checked = AugmentedRowShape.safeParse(row);
  if (checked.success) return;
  const issue = checked.error.issues[0] as z.core.$ZodIssue;
  const path = issue.path.length > 0 ? `$.${issue.path.join('.')}` : '$';
  throw new HarnessAugmentError(
    `${file}:${line}: not a row written by hsa augment (${path}: ${issue.message})`,
    {
      issues: [
        {
          code: 'not_an_augmented_row',
          path: issue.path as Array<string | number>,
          message: issue.message,
          file,
          line,
        },
      ],
    },
  );
}

/** The `--sidecar` option of the commands that read rows. */
export const sidecarOptionText =
  'the variants sidecar(s) of rows by reference (default: <rows without .jsonl>.variants.jsonl, else variants.jsonl beside the rows)';

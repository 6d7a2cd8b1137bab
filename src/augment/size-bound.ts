// The bound on the harnesses augmentation takes. A variant is a whole harness (copied, checked and written
// for each row), and its checks read every text a step changed, so the work of a row grows with the harness:
// about a CPU-second per row at 1,600 skills. Past the bound a run would take hours for a few rows; it is
// refused at once, naming the bound, rather than left to run.
import { HarnessAugmentError } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';

/**
 * The most skills and the most tools a harness may have for augmentation.
 *
 * @example
 * harness.skills.items.length <= augmentBounds.skills // augmentable
 */
export const augmentBounds = { skills: 2000, tools: 2000 } as const;

/**
 * Throws (exit 1 in the CLI) when a harness has more skills or tools than augmentation takes
 * (`augmentBounds`); validating, rendering and exporting such a harness is unaffected.
 *
 * @example
 * checkAugmentBounds(harness); // throws for a harness with 10,011 skills
 */
export function checkAugmentBounds(harness: Harness): void {
  const issues = (['skills', 'tools'] as const).flatMap((part) => {
    const count = harness[part].items.length;
    const bound = augmentBounds[part];
    return count > bound
      ? [
          {
            code: 'harness_too_large',
            path: [part, 'items'],
            message: `the harness has ${count} ${part}, more than ${bound}, the most augmentation takes (the work of each row grows with the harness)`,
          },
        ]
      : [];
  });
  if (issues.length > 0)
    throw new HarnessAugmentError(
      `harness too large to augment: ${issues.map((i) => i.message).join('; ')}`,
      {
        issues,
      },
    );
}

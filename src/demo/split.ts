// The demo's train/bench split, by trajectory: every bench item comes from a held-out trajectory, and no
// held-out trajectory is trained on, whole or in part. With an items file the drawn items decide which
// trajectories are held out (an item names its trajectory by `meta.source` or its gold's id); without one,
// held-out trajectories are drawn and every scorable turn of each becomes an item (`itemsFromTrajectory`).
// The bootstrap resamples trajectories, not items: the turns of one conversation are not independent.
import { createRandom } from '../augment/random.js';
import { itemsFromTrajectory } from '../bench/derive-items.js';
import type { BenchItem } from '../bench/schema.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { fromZodIssues } from '../harness/parse-harness.js';
import type { Harness } from '../harness/schema.js';
import { TrajectorySchema } from '../trajectory/schema.js';

export interface DemoSplit {
  /** The bench items, in draw order. */
  items: BenchItem[];
  /** The lines of the trajectories file that may be trained on: none is a held-out trajectory. */
  pool: string[];
  /** The trajectory behind each item, by item id: the unit the bootstrap resamples. */
  sourceOf: Map<string, string>;
  /** Trajectories read (lines with a string id). */
  trajectories: number;
  /** Trajectories held out of training. */
  heldOut: number;
}

/**
 * The trajectory an item was made from: `meta.source` when the item names one, else its gold's id.
 *
 * @example
 * itemSource(item) // 'hd-0042'
 */
export function itemSource(item: BenchItem): string {
  return typeof item.meta?.source === 'string' ? item.meta.source : item.gold.id;
}

function lineId(line: string): string | undefined {
  const id = (JSON.parse(line) as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Held-out trajectories drawn until `benchItems` items (or half of the trajectories) are reached. Only the
 * trajectories drawn are read as trajectories and cut into items: a large file costs little more than its
 * parse.
 */
function drawHeldOut(
  harness: Harness,
  lines: readonly string[],
  file: string,
  benchItems: number,
  seed: string,
): BenchItem[] {
  // At most half of the trajectories, so that training keeps conversations of every kind.
  const most = Math.floor(lines.length / 2);
  const items: BenchItem[] = [];
  let held = 0;
  const order = createRandom(`${seed}/demo/items`).shuffle(lines.map((_, index) => index));
  for (const index of order) {
    if (items.length >= benchItems || held >= most) break;
    const parsed = TrajectorySchema.safeParse(JSON.parse(lines[index] as string));
    if (!parsed.success)
      throw new HarnessAugmentError(`${file}:${index + 1}: not a trajectory`, {
        issues: fromZodIssues(parsed.error.issues).map((issue) => ({ ...issue, file, line: index + 1 })),
      });
    // A trajectory without a scorable turn gives no item: it stays in the training pool.
    const trajectoryItems = itemsFromTrajectory(harness, parsed.data).items;
    if (trajectoryItems.length === 0) continue;
    held++;
    items.push(...trajectoryItems.slice(0, benchItems - items.length));
  }
  return items;
}

/**
 * Splits gold trajectories (JSONL lines) into bench items and a training pool, by trajectory.
 *
 * @example
 * const { items, pool } = splitByTrajectory({ harness, lines, file: 'gold.jsonl', benchItems: 120, seed: '42' });
 */
export function splitByTrajectory(input: {
  harness: Harness;
  lines: readonly string[];
  /** The trajectories file, for error messages. */
  file: string;
  /** Items to draw from (an items file); without them items are derived from held-out trajectories. */
  items?: readonly BenchItem[];
  benchItems: number;
  seed: string;
}): DemoSplit {
  const items = input.items
    ? // The items file may name every trajectory: only the items drawn for the bench are held out.
      createRandom(`${input.seed}/demo/items`).sample([...input.items], input.benchItems)
    : drawHeldOut(input.harness, input.lines, input.file, input.benchItems, input.seed);
  const held = new Set(items.flatMap((item) => [item.gold.id, itemSource(item)]));
  const ids = input.lines.map(lineId);
  return {
    items,
    pool: input.lines.filter((_, index) => {
      const id = ids[index];
      return id !== undefined && !held.has(id);
    }),
    sourceOf: new Map(items.map((item) => [item.id, itemSource(item)])),
    trajectories: ids.filter((id) => id !== undefined).length,
    heldOut: new Set(items.map(itemSource)).size,
  };
}

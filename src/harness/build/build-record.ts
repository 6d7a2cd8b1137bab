// The build record that `hsa harness build` keeps beside the harness it writes (`harness.build.json` beside
// `harness.yaml`): for every tool, skill, prompt section and hook a source gave, which source and the hash of
// what it gave. The next build compares the sources with it, so that it changes only what changed in the
// sources and tells a source's item from one the user wrote by hand.
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { OwnedItem } from './merge-items.js';

/** The four lists a build merges, by the name the record and the change report give them. */
export const buildListNames = ['tools', 'skills', 'sections', 'hooks'] as const;
export type BuildListName = (typeof buildListNames)[number];

const OwnedItemSchema = z.strictObject({ source: z.string(), hash: z.string() });

export const BuildRecordSchema = z.strictObject({
  format: z.literal('hsa-harness-build/1'),
  sources: z.array(z.string()),
  items: z.strictObject({
    tools: z.record(z.string(), OwnedItemSchema),
    skills: z.record(z.string(), OwnedItemSchema),
    sections: z.record(z.string(), OwnedItemSchema),
    hooks: z.record(z.string(), OwnedItemSchema),
  }),
});

/** The parsed build record. */
export type BuildRecord = z.infer<typeof BuildRecordSchema>;

/** The record's items as maps, one per list. */
export type OwnedItems = Record<BuildListName, Map<string, OwnedItem>>;

/**
 * Where the build record of a harness file lives: beside it, its name without the extension plus
 * `.build.json`.
 *
 * @example
 * buildRecordPath('out/harness.yaml') // 'out/harness.build.json'
 */
export function buildRecordPath(harnessFile: string): string {
  const name = basename(harnessFile).replace(/\.(ya?ml|json)$/i, '');
  return join(dirname(harnessFile), `${name}.build.json`);
}

/** The record's items as maps (an absent record owns nothing). */
export function ownedItems(record: BuildRecord | undefined): OwnedItems {
  const lists = {} as OwnedItems;
  for (const name of buildListNames) lists[name] = new Map(Object.entries(record?.items[name] ?? {}));
  return lists;
}

/**
 * The record of a build as JSON text: keys sorted, so that the same sources give the same bytes.
 *
 * @example
 * buildRecordText(['--openai-tools tools.json'], owned)
 */
export function buildRecordText(sources: readonly string[], owned: OwnedItems): string {
  const items = {} as BuildRecord['items'];
  for (const name of buildListNames)
    items[name] = Object.fromEntries(
      [...owned[name].entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, item]) => [key, { source: item.source, hash: item.hash }]),
    );
  const record: BuildRecord = { format: 'hsa-harness-build/1', sources: [...sources], items };
  return `${JSON.stringify(record, null, 2)}\n`;
}

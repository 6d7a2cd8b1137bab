// Run by test/cli/heap-growth.test.ts in a child process (`node --expose-gc --import tsx`): keeps a live set
// in the old generation, then allocates objects that live long enough to be promoted and die there, and
// prints the largest old space V8 committed against the live old space. With `--limit` it first calls
// `limitHeapGrowth()`, as `hsa` does at start.
import { getHeapSpaceStatistics } from 'node:v8';
import { limitHeapGrowth } from '../../src/cli/heap-growth.js';

if (process.argv.includes('--limit')) limitHeapGrowth();
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');
const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');

const live: Array<{ index: number; text: string; list: number[] }> = [];
for (let index = 0; index < 200_000; index++) live.push({ index, text: `live-${index}`, list: [index] });
// A ring of recent objects: each survives a few scavenges (promoted), then is replaced and dies old.
const ring: Array<{ index: number; text: string; list: number[] }> = new Array(100_000);
let committed = 0;
for (let index = 0; index < 2_000_000; index++) {
  ring[index % ring.length] = { index, text: `churn-${index}`, list: [index] };
  if (index % 10_000 === 0) committed = Math.max(committed, oldSpace()?.space_size ?? 0);
}
collect();
const liveBytes = oldSpace()?.space_used_size ?? 0;
process.stdout.write(
  `${JSON.stringify({ liveBytes, committedBytes: committed, kept: live.length + ring.length })}\n`,
);

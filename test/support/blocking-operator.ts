// An operator module for tests of the SFT stage's augment threads: `prompt/wait-for-marker` changes
// nothing, but when it augments the example `params.block` it blocks its thread (synchronously: no event
// loop turns while it waits) until the file `params.marker` exists, for at most `params.limitMs`, then
// appends "<example> seen" or "<example> timeout" to `params.log`. On the main thread the wait blocks the
// loop that would write the marker, so only an augmentation in another thread can see it.
import { appendFileSync, existsSync } from 'node:fs';
import { z } from 'zod';
import { defineOperator, unchanged } from '../../src/kit/index.js';

const pause = new Int32Array(new SharedArrayBuffer(4));

export const operators = [
  defineOperator({
    id: 'prompt/wait-for-marker',
    version: 1,
    dimension: 'prompt',
    mode: 'exact',
    description: 'Changes nothing; blocks the thread augmenting one example until a marker file exists.',
    params: z.object({
      block: z.string(),
      marker: z.string(),
      log: z.string(),
      limitMs: z.number().int().positive().default(120_000),
    }),
    apply(harness, context) {
      const { block, marker, log, limitMs } = context.params;
      if (context.trajectory?.id === block) {
        const until = Date.now() + limitMs;
        while (!existsSync(marker) && Date.now() < until) Atomics.wait(pause, 0, 0, 20);
        appendFileSync(log, `${block} ${existsSync(marker) ? 'seen' : 'timeout'}\n`);
      }
      return unchanged(harness);
    },
  }),
];

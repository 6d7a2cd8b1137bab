// A worker thread asks the main thread for a pool entry over its task's MessagePort. If that port closes
// before the answer (the main thread closes its end when the task settles), the request must fail: a
// thread that waits for an answer that cannot come holds its task forever, and the run hangs.
import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { PoolEntryData } from '../../../src/augment/variant-pool.js';
import { requestEntry, serveEntries } from '../../../src/pipeline/parallel/entry-requests.js';

/** 'answered', 'failed', or 'waiting' once everything the port's close set off has run. */
async function stateAfterClose(request: Promise<unknown>, closed: Promise<unknown>): Promise<string> {
  const state = request.then(
    () => 'answered',
    () => 'failed',
  );
  await closed;
  await new Promise((resolve) => setImmediate(resolve));
  return Promise.race([state, Promise.resolve('waiting')]);
}

describe('pool entry requests over a task port', () => {
  it('fails, instead of waiting forever, when the port closes before the answer', async () => {
    const { port1, port2 } = new MessageChannel();
    port1.on('message', () => {}); // the request arrives, and is never answered
    const request = requestEntry(port2, 3);
    const closed = once(port2, 'close');
    port1.close();
    expect(await stateAfterClose(request, closed)).toBe('failed');
    await expect(request).rejects.toThrow(/port closed before the main thread answered/u);
  });

  it('gets the entry the main thread serves, and its error when it has none', async () => {
    const { port1, port2 } = new MessageChannel();
    const entry = { index: 5, seed: 's/pool/5' } as PoolEntryData;
    serveEntries(port1, async (index) => {
      if (index === 5) return entry;
      throw new Error(`no entry ${index}`);
    });
    await expect(requestEntry(port2, 5)).resolves.toEqual(entry);
    await expect(requestEntry(port2, 6)).rejects.toThrow('no entry 6');
    port1.close();
  });
});

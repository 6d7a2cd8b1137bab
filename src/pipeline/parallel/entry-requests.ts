// A worker thread asks the main thread for a pool entry it does not own over the running task's
// MessagePort (`{ need: index }`, answered with the entry's data or an error). The port is the task's: the
// main thread closes its end when the task settles. A request whose answer can no longer come (the other
// end closed first) must fail, never wait: a thread waiting forever holds its task, and the run hangs.
import type { MessagePort } from 'node:worker_threads';
import type { PoolEntryData } from '../../augment/variant-pool.js';

interface Reply {
  index: number;
  entry?: PoolEntryData;
  error?: string;
}

/**
 * Asks for entry `index` on `port`; rejects when the port closes before the answer.
 *
 * @example
 * const entry = await requestEntry(task.port, 17);
 */
export function requestEntry(port: MessagePort, index: number): Promise<PoolEntryData> {
  return new Promise((resolve, reject) => {
    const settle = () => {
      port.off('message', onMessage);
      port.off('close', onClose);
    };
    const onMessage = (reply: Reply) => {
      if (reply.index !== index) return;
      settle();
      if (reply.entry) resolve(reply.entry);
      else reject(new Error(reply.error ?? `the main thread has no pool entry ${index}`));
    };
    const onClose = () => {
      settle();
      reject(new Error(`pool entry ${index}: the task's port closed before the main thread answered`));
    };
    port.on('message', onMessage);
    port.on('close', onClose);
    port.postMessage({ need: index });
  });
}

/**
 * The main thread's side: answers each request on `port` with `entryOf(index)`. The caller closes the port
 * once the task has settled (every request of a task is answered before its result, since the thread
 * awaits them).
 *
 * @example
 * serveEntries(channel.port1, (index) => local.entryData(index));
 */
export function serveEntries(port: MessagePort, entryOf: (index: number) => Promise<PoolEntryData>): void {
  port.on('message', ({ need }: { need: number }) => {
    entryOf(need).then(
      (entry) => port.postMessage({ index: need, entry } satisfies Reply),
      (error: Error) => port.postMessage({ index: need, error: error.message } satisfies Reply),
    );
  });
}

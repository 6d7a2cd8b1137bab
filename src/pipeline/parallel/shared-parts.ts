// Rows cross from a worker thread to the main thread by structured clone, and a row holds its variant
// harness and relabel: the same objects for every row drawn from one pool entry. Sending them again with
// every row costs a clone on both sides and, on the main thread, a fresh object per row (so the caches
// keyed on the object, such as the harness hash the sidecar writer needs, never hit). A thread sends an
// object in full until it has seen it twice; the second time it names it with a key the main thread
// keeps, and from then on it sends the key alone. Objects seen once (a variant made for one example)
// are never kept, so what the main thread holds is bounded by the pool's entries. A harness sent in full
// goes with the hashes the thread made of it (its certificate names it by hash), so that the main thread,
// which names it by hash in the sidecar, does not serialise and hash its copy again. A row that uses its pool
// entry as it is (no step for its example: `provenance.pool.perExample` 0) holds the entry's own objects,
// which other rows will share: they are named at the first sending.
import { threadId } from 'node:worker_threads';
import type { ExampleResult } from '../../augment/augment.js';
import { adoptHarnessHashes, type HarnessHashes, knownHarnessHashes } from '../../harness/hash.js';
import type { Harness } from '../../harness/schema.js';

/**
 * A part of a row as sent: the object (a harness with the hashes the thread has made of it), the object
 * with the key to keep it under, or the key alone.
 */
type SentPart<T> = { full: T; keep?: string; hashes?: HarnessHashes } | { key: string };

type Row = Extract<ExampleResult, { row: unknown }>['row'];

/**
 * A result as a thread sends it: a row's harness and relabel as sent parts, in their places (the row's
 * keys keep their order, so a row written whole is the same bytes).
 */
export type SentResult =
  | Extract<ExampleResult, { reject: unknown }>
  | {
      row: Omit<Row, 'harness' | 'relabel'> & {
        harness: SentPart<Row['harness']>;
        relabel: SentPart<Row['relabel']>;
      };
    };

/**
 * The thread's side: remembers the objects it has sent (weakly), and names those it sends again.
 *
 * @example
 * const sender = createPartSender(); port.postMessage(results.map(sender.send));
 */
export function createPartSender(): { send(result: ExampleResult): SentResult } {
  const sightings = new WeakMap<object, string | number>();
  let next = 0;
  const part = <T extends object>(value: T, shared: boolean, hashes?: HarnessHashes): SentPart<T> => {
    const seen = sightings.get(value);
    if (typeof seen === 'string') return { key: seen };
    const full = { full: value, ...(hashes ? { hashes } : {}) };
    if (seen === undefined && !shared) {
      sightings.set(value, 1);
      return full;
    }
    const keep = `${threadId}:${next++}`;
    sightings.set(value, keep);
    return { ...full, keep };
  };
  return {
    send(result) {
      if ('reject' in result) return result;
      const { row } = result;
      const shared = row.provenance.pool?.perExample === 0;
      return {
        row: {
          ...row,
          harness: part(row.harness, shared, knownHarnessHashes(row.harness)),
          relabel: part(row.relabel, shared),
        },
      };
    },
  };
}

/**
 * The main thread's side: rebuilds each result, holding the kept objects so that rows of one entry share
 * them, as they do on one thread. A thread's results must be received in the order it sent them (a
 * thread's messages arrive in order).
 *
 * @example
 * const receiver = createPartReceiver(); const results = sent.map(receiver.receive);
 */
export function createPartReceiver(): { receive(result: SentResult): ExampleResult; kept(): number } {
  const kept = new Map<string, unknown>();
  const part = <T>(sent: SentPart<T>): T => {
    if ('key' in sent) {
      if (!kept.has(sent.key)) throw new Error(`a worker thread named part ${sent.key}, never sent`);
      return kept.get(sent.key) as T;
    }
    if (sent.keep !== undefined) kept.set(sent.keep, sent.full);
    if (sent.hashes) adoptHarnessHashes(sent.full as Harness, sent.hashes);
    return sent.full;
  };
  return {
    receive(result) {
      if ('reject' in result) return result;
      const { row } = result;
      return { row: { ...row, harness: part(row.harness), relabel: part(row.relabel) } };
    },
    kept: () => kept.size,
  };
}

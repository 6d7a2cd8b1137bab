// A row that uses its pool entry as it is holds the entry's own harness and relabel, which the entry's
// other rows share: the thread names them at the first sending, so the second row of the entry crosses
// by key alone (one copy, one object on the main thread, the sidecar's per-object caches hit).
import { describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../../src/augment/augment.js';
import { createPartReceiver, createPartSender } from '../../../src/pipeline/parallel/shared-parts.js';

const row = (id: string, harness: object, relabel: object, perExample: number) =>
  ({
    row: { id, harness, trajectory: { id }, relabel, provenance: { id, pool: { index: 1, perExample } } },
  }) as unknown as ExampleResult;

describe('a pool entry sent from an augment thread', () => {
  it('crosses in full once, then by key', () => {
    const sender = createPartSender();
    const receiver = createPartReceiver();
    const entry = { harness: { id: 'entry' }, relabel: { tools: { a: 'b' } } };
    const sent = [row('r1', entry.harness, entry.relabel, 0), row('r2', entry.harness, entry.relabel, 0)];
    const messages = sent.map((result) => structuredClone(sender.send(result)));
    expect(JSON.stringify(messages[1])).not.toContain('"entry"');
    const received = messages.map((message) => receiver.receive(message));
    expect(JSON.stringify(received)).toBe(JSON.stringify(sent));
    const harnessOf = (result: ExampleResult | undefined) =>
      (result as { row: { harness: object } }).row.harness;
    expect(harnessOf(received[1])).toBe(harnessOf(received[0]));
  });

  it('sends a variant made for one example in full, and keeps nothing of it', () => {
    const sender = createPartSender();
    const receiver = createPartReceiver();
    const own = { harness: { id: 'own' }, relabel: {} };
    receiver.receive(structuredClone(sender.send(row('r1', own.harness, own.relabel, 1))));
    expect(receiver.kept()).toBe(0);
  });
});

// Rows cross from an augment thread with their harness and relabel in full until the thread has sent
// them twice, then by key: the main thread gets rows equal to the thread's, key for key, and the rows of
// one pool entry share one harness and relabel object, as on one thread.
import { describe, expect, it } from 'vitest';
import type { ExampleResult } from '../../src/augment/augment.js';
import { hashHarness, knownHarnessHashes } from '../../src/harness/hash.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { createPartReceiver, createPartSender } from '../../src/pipeline/parallel/shared-parts.js';

const row = (id: string, harness: object, relabel: object) =>
  ({ row: { id, harness, trajectory: { id }, relabel, provenance: { id } } }) as unknown as ExampleResult;

describe('the parts of rows sent from an augment thread', () => {
  it('rebuilds every row, shares an object sent again, and keeps only those', () => {
    const sender = createPartSender();
    const receiver = createPartReceiver();
    const entry = { harness: { id: 'entry' }, relabel: { tools: { a: 'b' } } };
    const own = { harness: { id: 'own' }, relabel: {} };
    const sent = [
      row('r1', entry.harness, entry.relabel),
      row('r2', own.harness, own.relabel),
      row('r3', entry.harness, entry.relabel),
      { reject: { id: 'x', reason: 'uncertified', issues: [] } } as unknown as ExampleResult,
      row('r4', entry.harness, entry.relabel),
      row('r5', entry.harness, entry.relabel),
    ];
    // As a structured clone would: each message is a copy.
    const messages = sent.map((result) => structuredClone(sender.send(result)));
    expect(JSON.stringify(messages[4])).not.toContain('"entry"');
    const received = messages.map((message) => receiver.receive(message));
    expect(JSON.stringify(received)).toBe(JSON.stringify(sent));
    const harnessOf = (result: ExampleResult | undefined) =>
      (result as { row: { harness: object } }).row.harness;
    expect(harnessOf(received[4])).toBe(harnessOf(received[2]));
    expect(harnessOf(received[5])).toBe(harnessOf(received[2]));
    // The entry's harness and relabel are kept; the variant seen once is not.
    expect(receiver.kept()).toBe(2);
  });

  it('refuses a key it was never sent', () => {
    const receiver = createPartReceiver();
    const message = { row: { id: 'r', harness: { key: '9:0' }, relabel: { key: '9:1' } } };
    expect(() => receiver.receive(message as never)).toThrow(/part 9:0, never sent/);
  });

  it('sends the hashes the thread made of a harness, and the main thread adopts them for its copy', async () => {
    const harness = await loadHarnessFile(
      new URL('../../fixtures/helpdesk/harness.yaml', import.meta.url).pathname,
    );
    const hashed = structuredClone(harness);
    const expected = hashHarness(hashed);
    const unhashed = { ...structuredClone(harness), description: 'never hashed in the thread' };
    const sender = createPartSender();
    const receiver = createPartReceiver();
    const [first, second] = [row('r1', hashed, {}), row('r2', unhashed, {})].map((result) =>
      receiver.receive(structuredClone(sender.send(result))),
    );
    const harnessOf = (result: ExampleResult | undefined) =>
      (result as { row: { harness: Harness } }).row.harness;
    // A copy: another object, whose hashes are the thread's without hashing it again.
    expect(harnessOf(first)).not.toBe(hashed);
    expect(knownHarnessHashes(harnessOf(first))).toEqual(expected);
    expect(hashHarness(structuredClone(harnessOf(first)))).toEqual(expected);
    // The thread had not hashed the other one: nothing is adopted, the main thread hashes it when asked.
    expect(knownHarnessHashes(harnessOf(second))).toBeUndefined();
    expect(hashHarness(harnessOf(second)).harness).not.toBe(expected.harness);
  });
});

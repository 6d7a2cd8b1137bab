// Variant 0 of a bench item (the base harness, the gold unchanged) is certified from what moving the gold
// found: the move's issues and hook decisions are the rewritten gold's validation under the base, so the
// certificate does not walk it again. Counted in walks of the trajectory (`trajectoryWalks`), never in
// time; the certificate is the one computed from scratch.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { certify } from '../../src/augment/certificate.js';
import { identityPlan } from '../../src/augment/plan.js';
import { type BenchReject, generateBench } from '../../src/bench/generate.js';
import { readBenchItems } from '../../src/bench/items.js';
import type { BenchItem, BenchRow } from '../../src/bench/schema.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { forwardTrajectory, identityRelabel } from '../../src/trajectory/relabel.js';
import { trajectoryWalks } from '../../src/trajectory/validate-trajectory.js';
import { projectRoot } from '../support/run-cli.js';

let harness: Harness;
let items: BenchItem[];

beforeAll(async () => {
  harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
  items = [];
  for await (const record of readBenchItems(join(projectRoot, 'fixtures/livestream/bench/items.jsonl'))) {
    if ('item' in record) items.push(record.item);
    if (items.length === 3) break;
  }
});

async function baseRows(input: BenchItem[]) {
  const rows: BenchRow[] = [];
  const rejects: BenchReject[] = [];
  const before = trajectoryWalks();
  for await (const row of generateBench(harness, input, {
    plan: identityPlan,
    variants: 0,
    seed: 42,
    onReject: (reject) => rejects.push(reject),
  }))
    rows.push(row);
  const after = trajectoryWalks();
  return {
    rows,
    rejects,
    validate: after.validate - before.validate,
    rederive: after.rederive - before.rederive,
  };
}

/** The identity certificate of an item's gold computed from scratch: move it, validate it again. */
function certifiedFromScratch(item: BenchItem) {
  const gold = structuredClone(item.gold);
  return certify({
    base: harness,
    variant: harness,
    original: gold,
    rewritten: forwardTrajectory(gold, identityRelabel, harness).trajectory,
    relabel: identityRelabel,
  });
}

describe("variant 0's certificate", () => {
  it('walks each gold three times: moved to the base, validated there once, moved back', async () => {
    const fresh = items.map((item) => structuredClone(item));
    const { rows, validate, rederive } = await baseRows(fresh);
    expect(rows.map((row) => row.id)).toEqual(fresh.map((item) => `${item.id}/0`));
    // Per item: the move (rederive 1), the inverse (rederive 1), the gold's validation under the base
    // (validate 1). Before: the certificate validated the rewritten gold again (validate 2 per item).
    expect({ validate, rederive }).toEqual({ validate: fresh.length, rederive: 2 * fresh.length });
    for (const [index, row] of rows.entries()) {
      const item = fresh[index] as BenchItem;
      expect(row.certificate.certified).toBe(true);
      expect(JSON.stringify(row.certificate)).toBe(JSON.stringify(certifiedFromScratch(item)));
    }
  });

  it('gives the reasons of a validation from scratch when the gold does not move cleanly', async () => {
    const item = structuredClone(items[0] as BenchItem);
    const call = item.gold.messages.find(
      (message) => message.role === 'assistant' && message.tool_calls?.some((tool) => tool.function),
    );
    if (call?.role !== 'assistant' || !call.tool_calls?.[0]) throw new Error('expected a tool call');
    call.tool_calls[0].function.name = 'no_such_tool';
    const { rows, rejects } = await baseRows([item]);
    expect(rows).toEqual([]);
    expect(rejects.map((reject) => [reject.reason, reject.variantIndex])).toEqual([['uncertified', 0]]);
    const scratch = certifiedFromScratch(item);
    expect(scratch.certified).toBe(false);
    expect(rejects[0]?.issues).toEqual(scratch.issues);
  });
});

// `hat` rows over a harness nobody on the project wrote (a telecom agent assembled from tau2-bench's public
// tools and written policy, test/augment/fixtures/public/telecom): every row keeps the policy's procedures,
// dependencies and enumerations, read against facts a domain reader wrote down here by hand (not through the
// library's own rule), while the augmentation still changes skill text and renames in most rows.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { augment } from '../../src/augment/augment.js';
import { certify } from '../../src/augment/certificate.js';
import { createRegistry } from '../../src/augment/registry.js';
import { renameSymbols } from '../../src/augment/rename-symbols.js';
import { resolvePolicy } from '../../src/augment/resolve-policy.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { readJsonl } from '../../src/trajectory/read-jsonl.js';
import { forwardTrajectory } from '../../src/trajectory/relabel.js';

const folder = fileURLToPath(new URL('./fixtures/public/telecom/', import.meta.url));

/** Rules of the telecom policy whose order is the task, as a domain reader lists them. */
const procedures = [
  [
    'Check the bill status to',
    'Check the bill amount due',
    'Send the user a payment request',
    'Inform the user that a payment request',
    'If the user accepts the payment request',
    'After the payment is made',
    'Always check that the bill status is updated',
  ],
  ['Ask them how much data', 'Confirm the price', 'Apply the refueled data'],
];
/** Pairs whose second rule leans on the first: it must come right after it. */
const dependencies = [
  [
    'you should check if the line is roaming enabled.',
    'If it is not, you should enable it',
    "If it isn't, you should enable it",
  ],
];
/** Markers that may stand between neighbouring rules of a list in any style. */
const between = /^[\s|]*(?:[-*+]|\d+[.)]|\|\s*\d+\s*\|)?\s*$/u;

describe('hat rows over a public telecom harness', () => {
  it('keep every procedure in order and marked, every dependency adjacent, and still change the harness', async () => {
    const harness = await loadHarnessFile(`${folder}harness.yaml`);
    const { plan } = await resolvePolicy('hat', { registry: createRegistry(builtinOperators) });
    const baseBodies = new Set(harness.skills.items.map((skill) => skill.body));
    let rows = 0;
    let textChanged = 0;
    let renamed = 0;
    for await (const row of augment(harness, readJsonl(`${folder}gold.jsonl`), {
      plan,
      variants: 8,
      seed: 42,
    })) {
      rows++;
      expect(row.certificate.certified).toBe(true);
      expect(row.certificate.checks.meaningKept).toBe(true);
      const bodies = row.harness.skills.items.map((skill) => skill.body);
      if (bodies.some((body) => !baseBodies.has(body))) textChanged++;
      if (row.relabel.steps.some((step) => step.type === 'rename_tools' || step.type === 'rename_skills'))
        renamed++;
      for (const body of bodies) {
        for (const steps of procedures) {
          const at = steps.map((step) => body.indexOf(step));
          if (at.every((position) => position < 0)) continue;
          expect(
            at.every(
              (position, index) => position >= 0 && (index === 0 || position > (at[index - 1] as number)),
            ),
            body,
          ).toBe(true);
          // Steps that lost their bullet are numbered, never prose.
          for (const position of at)
            expect(body.slice(body.lastIndexOf('\n', position) + 1, position), body).toMatch(between);
        }
        for (const [first, ...seconds] of dependencies) {
          const start = body.indexOf(first as string);
          if (start < 0) continue;
          const next = seconds.map((second) => body.indexOf(second)).find((position) => position >= 0);
          expect(next, body).toBeDefined();
          expect(body.slice(start + (first as string).length, next), body).toMatch(between);
        }
        if (body.includes('The user has an overdue bill.')) {
          expect(body, body).toMatch(
            /following reasons:\n(?:- |1\. )The user has an overdue bill\.\n(?:- |2\. )The line's contract end date/u,
          );
        }
      }
    }
    expect(rows).toBe(64);
    expect(textChanged / rows).toBeGreaterThan(0.6);
    expect(renamed / rows).toBeGreaterThan(0.5);
  }, 120_000);

  it('a rename that swaps a domain term for a generic word does not certify', async () => {
    const harness = await loadHarnessFile(`${folder}harness.yaml`);
    let original: Parameters<typeof certify>[0]['original'] | undefined;
    for await (const record of readJsonl(`${folder}gold.jsonl`)) {
      if ('value' in record) original ??= record.value as typeof original;
    }
    if (!original) throw new Error('no gold trajectory');
    const renamed = (tools: Record<string, string>) => {
      const { harness: variant, relabel } = renameSymbols(harness, { tools });
      const rewritten = forwardTrajectory(original, relabel, variant).trajectory;
      return certify({ base: harness, variant, original, rewritten, relabel });
    };
    // "data" is mobile data in this harness's policy: "info" is another task's word.
    const misleading = renamed({ get_data_usage: 'get_info_usage' });
    expect(misleading.certified).toBe(false);
    expect(misleading.checks.meaningKept).toBe(false);
    expect(misleading.issues.map((issue) => issue.code)).toContain('misleading_name');
    const faithful = renamed({ get_data_usage: 'retrieve_data_usage' });
    expect(faithful.issues).toEqual([]);
    expect(faithful.certified).toBe(true);
  });
});

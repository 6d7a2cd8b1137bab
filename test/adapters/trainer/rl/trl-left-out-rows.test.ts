// The TRL RL export never drops a row without a word: a harness state whose tools cannot be Python methods
// (a parameter renamed `link-identifier` by the kebab style of tools/rename-parameters) is left out of
// grpo.jsonl and environments.json, and every one of its rows is in rejects.jsonl and counted by reason in
// the summary: rows + rejected is every row given.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { renameParameters } from '../../../../perturbations/tools/rename-parameters.js';
import { trlRlExporter } from '../../../../src/adapters/trainer/rl/trl.js';
import { trlToolProblem } from '../../../../src/adapters/trainer/rl/trl-tool-methods.js';
import { applyOperator } from '../../../../src/augment/operator.js';
import { toChatCompletionTools } from '../../../../src/harness/offered-tools.js';
import { loadHarnessFile } from '../../../../src/harness/parse-harness.js';
import type { RlRow } from '../../../../src/pipeline/rl.js';
import type { OfferedTool } from '../../../../src/trajectory/schema.js';
import { projectRoot } from '../../../support/run-cli.js';

const scratch = await mkdtemp(join(tmpdir(), 'hsa-trl-left-out-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

function row(id: string, tools: OfferedTool[], variantId?: string): RlRow {
  return {
    id,
    group: id,
    scenario: 'test',
    episode: { index: 0, id: 'e0' },
    seed: 's',
    state: variantId ? 'augmented' : 'original',
    ...(variantId ? { variantId } : {}),
    reset: { seed: 's', episode_index: 0 } as RlRow['reset'],
    reward: { kind: 'total' },
    prompt: [{ role: 'user', content: 'hi' }],
    tools,
  };
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const toOffered = (tools: { name: string; description?: string; parameters?: unknown }[]): OfferedTool[] =>
  tools.map((tool) => ({ type: 'function', function: tool }) as OfferedTool);

describe('TRL RL export: rows of states TRL cannot offer are counted, never dropped silently', () => {
  it('a kebab-case parameter variant (tools/rename-parameters) is left out with its reason, counted', async () => {
    const harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
    const applied = await applyOperator(renameParameters, structuredClone(harness), {
      rng: 'kebab',
      severity: 1,
      params: { style: 'kebab' },
    });
    if (!('harness' in applied)) throw new Error('rename-parameters did not apply');
    const variantTools = toChatCompletionTools(applied.harness) as OfferedTool[];
    const renamed = variantTools
      .flatMap((tool) => Object.keys((tool.function.parameters as { properties?: object })?.properties ?? {}))
      .filter((name) => name.includes('-'));
    expect(renamed.length).toBeGreaterThan(0);
    const rows = [
      row('g0', toChatCompletionTools(harness) as OfferedTool[]),
      row('g1', variantTools, 'v_kebab'),
      row('g2', variantTools, 'v_kebab'),
      row('g3', toChatCompletionTools(harness) as OfferedTool[]),
    ];
    const out = join(scratch, 'kebab');
    const summary = await trlRlExporter.write(rows, out, { envURL: 'http://127.0.0.1:8000', groupSize: 2 });
    expect(summary.rows).toBe(2);
    expect(summary.rejected).toBe(2);
    expect(summary.rejects).toHaveLength(1);
    expect(summary.rejects[0]?.rows).toBe(2);
    expect(summary.rejects[0]?.reason).toMatch(/parameter ".*-.*" is not a Python parameter name/);
    expect(summary.files).toContain(join(out, 'rejects.jsonl'));
    expect(lines(join(out, 'grpo.jsonl')).map((line) => line.hsa_row_id)).toEqual(['g0', 'g3']);
    expect(lines(join(out, 'rejects.jsonl'))).toEqual([
      { row_id: 'g1', environment: 'v_kebab', reason: summary.rejects[0]?.reason },
      { row_id: 'g2', environment: 'v_kebab', reason: summary.rejects[0]?.reason },
    ]);
    expect(Object.keys(JSON.parse(await readFile(join(out, 'environments.json'), 'utf8')))).toEqual([
      'original',
    ]);
  });

  it('property: rows + rejected = rows given; each row is in grpo.jsonl or rejects.jsonl, never both', async () => {
    const parameterName = fc.constantFrom(
      'link_id',
      'size',
      'link-id',
      'from',
      'maxPrice',
      'bill-identifier',
      'self',
    );
    const state = fc.uniqueArray(parameterName, { minLength: 0, maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(state, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(3), { minLength: 1, maxLength: 10 }),
        async (states, picks) => {
          const tools = states.map((parameters) =>
            toOffered([
              {
                name: 'lookup',
                description: 'Looks up.',
                parameters: {
                  type: 'object',
                  properties: Object.fromEntries(parameters.map((name) => [name, { type: 'string' }])),
                },
              },
            ]),
          );
          const rows = picks.map((pick, index) => {
            const at = pick % states.length;
            return row(`g${index}`, tools[at] as OfferedTool[], at === 0 ? undefined : `v_${at}`);
          });
          const out = join(scratch, 'property');
          const summary = await trlRlExporter.write(rows, out, {
            envURL: 'http://127.0.0.1:8000',
            groupSize: 2,
          });
          expect(summary.rows + summary.rejected).toBe(rows.length);
          expect(summary.rejects.reduce((sum, reject) => sum + reject.rows, 0)).toBe(summary.rejected);
          const kept = lines(join(out, 'grpo.jsonl')).map((line) => line.hsa_row_id);
          const left =
            summary.rejected > 0 ? lines(join(out, 'rejects.jsonl')).map((line) => line.row_id) : [];
          expect([...kept, ...left].sort()).toEqual(rows.map((entry) => entry.id).sort());
          for (const entry of rows) {
            const offerable = entry.tools.every((tool) => trlToolProblem(tool) === undefined);
            expect(kept.includes(entry.id)).toBe(offerable);
          }
        },
      ),
      { numRuns: 40, seed: 7 },
    );
  });
});

// Rows by reference: on both fixtures, rows written by reference read back as the inline rows byte for byte;
// runs and shards (n = 1, 2, 3) give the same rows and sidecar entries; a missing or garbled sidecar line is
// an error naming its place; the row and sidecar shapes are fixed by golden files.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtinOperators } from '../../perturbations/index.js';
import { type AugmentRow, augment } from '../../src/augment/augment.js';
import { createRegistry } from '../../src/augment/registry.js';
import { resolvePolicy } from '../../src/augment/resolve-policy.js';
import { createSidecarWriter, openSidecars, readAugmentedRows } from '../../src/augment/variant-sidecar.js';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { readJsonl } from '../../src/trajectory/read-jsonl.js';
import { projectRoot } from '../support/run-cli.js';
import { baggageTrajectory, travelHarness } from '../support/travel-harness.js';

const registry = createRegistry(builtinOperators);
const folder = mkdtempSync(join(tmpdir(), 'hsa-sidecar-'));

async function rowsOf(
  harness: Harness,
  input: AsyncIterable<unknown> | Iterable<unknown>,
  options: { shard?: { index: number; count: number }; policy?: string } = {},
): Promise<AugmentRow[]> {
  const { plan } = await resolvePolicy(options.policy ?? 'hat', { registry });
  const rows: AugmentRow[] = [];
  for await (const row of augment(harness, input, {
    plan,
    variants: 2,
    seed: 11,
    ...(options.shard ? { shard: options.shard } : {}),
  }))
    rows.push(row);
  return rows;
}

/** Writes rows by reference into `<name>.jsonl` and `<name>.variants.jsonl`; returns both texts. */
function writeByReference(name: string, rows: AugmentRow[]) {
  const writer = createSidecarWriter();
  let text = '';
  let sidecar = '';
  for (const row of rows) {
    const lines = writer.write(row);
    text += lines.row;
    sidecar += lines.sidecar;
  }
  writeFileSync(join(folder, `${name}.jsonl`), text);
  writeFileSync(join(folder, `${name}.variants.jsonl`), sidecar);
  return { rows: join(folder, `${name}.jsonl`), text, sidecar };
}

async function readBack(file: string, sidecars?: string[]): Promise<string> {
  let text = '';
  for await (const { row } of readAugmentedRows(file, sidecars ? { sidecars } : {}))
    text += `${JSON.stringify(row)}\n`;
  return text;
}

const inlineText = (rows: AugmentRow[]) => rows.map((row) => `${JSON.stringify(row)}\n`).join('');
const sortedLines = (text: string) => text.trimEnd().split('\n').sort();

describe.each(['livestream', 'helpdesk'])('rows by reference: %s', (fixture) => {
  let harness: Harness;
  let input: unknown[];
  let whole: AugmentRow[];
  beforeAll(async () => {
    harness = await loadHarnessFile(join(projectRoot, `fixtures/${fixture}/harness.yaml`));
    input = [];
    for await (const record of readJsonl(join(projectRoot, `fixtures/${fixture}/trajectories.jsonl`))) {
      if (input.length < 9) input.push(record);
    }
    whole = await rowsOf(harness, input);
  }, 120_000);

  it('reads back as the inline rows, byte for byte, at under a fifth of their bytes', async () => {
    const written = writeByReference(`${fixture}-whole`, whole);
    expect(await readBack(written.rows)).toBe(inlineText(whole));
    // Inline rows read unchanged.
    writeFileSync(join(folder, `${fixture}-inline.jsonl`), inlineText(whole));
    expect(await readBack(join(folder, `${fixture}-inline.jsonl`))).toBe(inlineText(whole));
    const inlineBytes = Buffer.byteLength(inlineText(whole));
    expect(Buffer.byteLength(written.text) * 5).toBeLessThanOrEqual(inlineBytes);
    // Each harness and relabel once, where a row first names it.
    const hashes = written.sidecar
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { hash: string }).hash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('is byte-identical across runs and across shards (n = 1, 2, 3)', async () => {
    const again = writeByReference(`${fixture}-again`, await rowsOf(harness, input));
    const first = writeByReference(`${fixture}-first`, whole);
    expect(again.text).toBe(first.text);
    expect(again.sidecar).toBe(first.sidecar);
    for (const count of [1, 2, 3]) {
      const shards = [];
      for (let index = 0; index < count; index++)
        shards.push(
          writeByReference(
            `${fixture}-${index}-of-${count}`,
            await rowsOf(harness, input, { shard: { index, count } }),
          ),
        );
      expect(sortedLines(shards.map((shard) => shard.text).join(''))).toEqual(sortedLines(first.text));
      const union = [...new Set(sortedLines(shards.map((shard) => shard.sidecar).join('')))];
      expect(union).toEqual(sortedLines(first.sidecar));
      // The merge: the shards' rows concatenated, read against every shard's sidecar.
      const merged = join(folder, `${fixture}-merged-${count}.jsonl`);
      writeFileSync(merged, shards.map((shard) => shard.text).join(''));
      const sidecars = shards.map((shard) => shard.rows.replace(/\.jsonl$/, '.variants.jsonl'));
      expect(sortedLines(await readBack(merged, sidecars))).toEqual(sortedLines(inlineText(whole)));
    }
  }, 120_000);
});

describe('a sidecar that does not hold what a row names', () => {
  let rows: AugmentRow[];
  beforeAll(async () => {
    rows = await rowsOf(travelHarness(), [baggageTrajectory()], { policy: 'tools-only' });
  });

  const failure = async (file: string, sidecars?: string[]) => {
    const error = await readBack(file, sidecars).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(HarnessAugmentError.isInstance(error), String(error)).toBe(true);
    expect((error as HarnessAugmentError).kind).toBe('invalid');
    return (error as Error).message;
  };

  it('names the row and the hash when the sidecar lacks it', async () => {
    const written = writeByReference('missing', rows);
    const [harnessLine, ...rest] = written.sidecar.trimEnd().split('\n');
    writeFileSync(join(folder, 'missing.variants.jsonl'), `${rest.join('\n')}\n`);
    const hash = (JSON.parse(harnessLine as string) as { hash: string }).hash;
    expect(await failure(written.rows)).toBe(
      `${written.rows}:1: harness ${hash} is not in the sidecar: ${join(folder, 'missing.variants.jsonl')}`,
    );
  });

  it('names the sidecar line that is cut, not JSON, or does not match its hash', async () => {
    const written = writeByReference('garbled', rows);
    const sidecar = join(folder, 'garbled.variants.jsonl');
    const [harnessLine, ...rest] = written.sidecar.trimEnd().split('\n') as [string, ...string[]];
    writeFileSync(sidecar, `${harnessLine.slice(0, 400)}\n${rest.join('\n')}\n`);
    expect(await failure(written.rows)).toMatch(new RegExp(`^${sidecar}:1: invalid JSON at column \\d+`));
    writeFileSync(sidecar, `${rest.join('\n')}\nnot a sidecar line\n`);
    expect(await failure(written.rows)).toBe(
      `${sidecar}:${rest.length + 1}: not a sidecar line ({"kind":"harness"|"relabel","hash":…})`,
    );
    writeFileSync(sidecar, `${harnessLine.replace('"version"', '"versions"')}\n${rest.join('\n')}\n`);
    expect(await failure(written.rows)).toMatch(
      new RegExp(`^${sidecar}:1: the harness does not match its hash sha256:`),
    );
  });

  it('says where it looked when there is no sidecar', async () => {
    const written = writeByReference('alone', rows);
    const rowsFile = join(folder, 'alone-moved.jsonl');
    writeFileSync(rowsFile, written.text);
    expect(await failure(rowsFile)).toContain(
      `no sidecar was found (looked for ${join(folder, 'alone-moved.variants.jsonl')}, ${join(folder, 'variants.jsonl')})`,
    );
  });
});

describe('the parsed entries a reader keeps', () => {
  // Each entry is checked against its hash when read from the file; one kept is not read again. A line
  // changed on disk after its first use shows which: the kept entry is returned, a line read again fails.
  it('are bounded by bytes: a hash named again is read from memory within the budget, from the file beyond it', async () => {
    const rows = await rowsOf(travelHarness(), [baggageTrajectory()], { policy: 'tools-only' });
    const written = writeByReference('budget', rows);
    const sidecar = join(folder, 'budget.variants.jsonl');
    const [harnessLine, ...rest] = written.sidecar.trimEnd().split('\n') as [string, ...string[]];
    const { hash } = JSON.parse(harnessLine) as { hash: string };
    const garbled = `${harnessLine.replace('"version"', '"vErsion"')}\n${rest.join('\n')}\n`;
    expect(garbled.length).toBe(written.sidecar.length);
    for (const [cacheBytes, kept] of [
      [undefined, true],
      [0, false],
    ] as const) {
      writeFileSync(sidecar, written.sidecar);
      const reader = await openSidecars([sidecar], cacheBytes === undefined ? {} : { cacheBytes });
      try {
        const first = await reader.harness(hash, 'row 1');
        writeFileSync(sidecar, garbled);
        const again = reader.harness(hash, 'row 2');
        if (kept) expect(await again).toBe(first);
        else await expect(again).rejects.toThrow(/does not match its hash/);
      } finally {
        await reader.close();
      }
    }
  });
});

describe('row and sidecar golden files', () => {
  it('fix the by-reference row and the sidecar line (UPDATE_GOLDEN=1 rewrites them)', async () => {
    const rows = await rowsOf(travelHarness(), [baggageTrajectory()], { policy: 'tools-only' });
    const writer = createSidecarWriter();
    const lines = rows.map((row) => writer.write(row));
    const files = {
      'by-reference.jsonl': lines.map((line) => line.row).join(''),
      'variants.jsonl': lines.map((line) => line.sidecar).join(''),
    };
    for (const [name, text] of Object.entries(files)) {
      const file = join(projectRoot, 'test/golden/rows', name);
      if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
        if (process.env.UPDATE_GOLDEN !== '1') throw new Error(`no golden file ${file}; run UPDATE_GOLDEN=1`);
        writeFileSync(file, text);
      }
      expect(text, name).toBe(readFileSync(file, 'utf8'));
    }
  });
});

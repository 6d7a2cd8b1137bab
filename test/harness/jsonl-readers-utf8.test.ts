// Every JSONL reader refuses invalid UTF-8 with its line rather than reading U+FFFD: the readers that do
// not go through readInputLines (a sidecar's entries, read by offset; check-exports' rows) decode through
// the same rule, and no module reads lines another way.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkExports } from '../../src/adapters/trainer/check-exports.js';
import { openSidecars } from '../../src/augment/variant-sidecar.js';
import { decodeLine } from '../../src/harness/input-file.js';
import { projectRoot } from '../support/run-cli.js';

const invalid = Buffer.from([0xff, 0xfe]);

describe('JSONL readers and invalid UTF-8', () => {
  it('decodeLine names the column and the byte', () => {
    expect(decodeLine(Buffer.concat([Buffer.from('ab'), invalid]))).toEqual({
      invalid: 'invalid UTF-8 at column 3 (byte 0xff)',
    });
    expect(decodeLine(Buffer.from('é ok'))).toEqual({ text: 'é ok' });
  });

  it('a sidecar entry with invalid UTF-8 is refused with its file and line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsa-sidecar-utf8-'));
    const file = join(dir, 'rows.variants.jsonl');
    const hash = `sha256:${'a'.repeat(64)}`;
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('\n'),
        Buffer.from(`{"kind":"harness","hash":"${hash}","harness":{"id":"`),
        invalid,
        Buffer.from('"}}\n'),
      ]),
    );
    const sidecars = await openSidecars([file]);
    try {
      await expect(sidecars.harness(hash, 'rows.jsonl:1')).rejects.toThrow(
        `${file}:2: invalid UTF-8 at column 117 (byte 0xff)`,
      );
    } finally {
      await sidecars.close();
    }
  });

  it('a sidecar that is a FIFO is refused instead of blocking the open', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsa-sidecar-fifo-'));
    const file = join(dir, 'rows.variants.jsonl');
    execFileSync('mkfifo', [file]);
    await expect(openSidecars([file])).rejects.toThrow(/it is a FIFO, not a regular file/);
  });

  it('check-exports fails a row that is not UTF-8, naming its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hsa-check-utf8-'));
    const folder = join(dir, 'openai');
    mkdirSync(folder);
    const row = (content: Buffer) =>
      Buffer.concat([
        Buffer.from('{"messages":[{"role":"user","content":"'),
        content,
        Buffer.from('"},{"role":"assistant","content":"ok"}]}\n'),
      ]);
    writeFileSync(join(folder, 'train.jsonl'), Buffer.concat([row(Buffer.from('fine')), row(invalid)]));
    const [structure] = await checkExports(folder);
    expect(structure).toMatchObject({ check: 'structure', rows: 2, failed: 1 });
    expect(structure?.reasons).toEqual([
      { at: 'line 2', reason: 'invalid UTF-8 at column 40 (byte 0xff)', rows: 1 },
    ]);
  });

  it('no module reads lines with node:readline (which reads invalid UTF-8 as U+FFFD)', () => {
    const offenders: string[] = [];
    const walk = (at: string) => {
      for (const name of readdirSync(at)) {
        const path = join(at, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && /from 'node:readline'/.test(readFileSync(path, 'utf8')))
          offenders.push(path);
      }
    };
    for (const root of ['src', 'perturbations']) walk(join(projectRoot, root));
    expect(offenders).toEqual([]);
  });
});

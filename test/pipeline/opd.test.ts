// The OPD stage on the bundled prompt set: golden distillation and GKD rows, the config snippet naming the
// base model as teacher and the training script (which compiles); every bundled reference meets its own
// constraints; bad lines and failing references become rejects with reasons, read = written + rejected.
// Update on purpose with UPDATE_GOLDEN=1 npx vitest run test/pipeline/opd.test.ts
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runOpd } from '../../src/pipeline/opd.js';
import { checkConstraints } from '../../src/pipeline/opd-constraints.js';
import { projectRoot } from '../support/run-cli.js';

const scratch = await mkdtemp(join(tmpdir(), 'hsa-opd-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));
const prompts = join(projectRoot, 'fixtures/opd/prompts.jsonl');
const golden = join(projectRoot, 'test/golden/opd');

describe('OPD stage', () => {
  it('writes the golden TRL distillation rows, config and script for the bundled prompts', async () => {
    const out = join(scratch, 'bundled');
    const summary = await runOpd({ prompts, teacher: 'Qwen/Qwen3-4B-Base' }, out);
    expect(summary).toMatchObject({ read: 52, rows: { distillation: 52, gkd: 52 }, rejected: 0 });
    for (const file of summary.files) {
      const text = await readFile(file, 'utf8');
      const target = join(golden, basename(file));
      if (process.env.UPDATE_GOLDEN === '1' || !existsSync(target)) writeFileSync(target, text);
      expect(text, basename(file)).toBe(readFileSync(target, 'utf8'));
    }
    // TRL's shapes: prompt-only conversational rows, and messages rows ending with the assistant turn.
    const first = JSON.parse((await readFile(join(out, 'distillation.jsonl'), 'utf8')).split('\n')[0]!);
    expect(Object.keys(first).sort()).toEqual(['id', 'prompt']);
    expect(first.prompt.at(-1).role).toBe('user');
    const gkd = JSON.parse((await readFile(join(out, 'gkd.jsonl'), 'utf8')).split('\n')[0]!);
    expect(gkd.messages.at(-1).role).toBe('assistant');
    expect(await readFile(join(out, 'opd.yaml'), 'utf8')).toContain('teacher_model: Qwen/Qwen3-4B-Base');
    execFileSync('python3', ['-m', 'py_compile', join(out, 'train_opd.py')]);
  });

  it('bundles references that meet their own constraints, and the checker catches a violation', async () => {
    const lines = (await readFile(prompts, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    for (const line of lines) expect(checkConstraints(line.reference, line.constraints), line.id).toEqual([]);
    expect(
      new Set(lines.flatMap((line) => line.constraints.map((c: { kind: string }) => c.kind))).size,
    ).toBeGreaterThan(15);
    expect(checkConstraints('- a\n- b', [{ kind: 'bullets', value: 3 }])).toEqual([
      { index: 0, kind: 'bullets', message: 'expected bullets 3, saw 2 bullets' },
    ]);
  });

  it('rejects bad lines with their reasons and keeps read = written + rejected', async () => {
    const file = join(scratch, 'bad.jsonl');
    await writeFile(
      file,
      [
        '{"id":"a","messages":[{"role":"user","content":"Say hi in lowercase."}],"constraints":[{"kind":"lowercase"}],"reference":"HI"}',
        '{"id":"b","messages":[{"role":"user","content":"Anything."}]}',
        '{"id":"b","messages":[{"role":"user","content":"Again."}]}',
        '{"id":"c","messages":[{"role":"assistant","content":"no user"}]}',
        '{"id":',
      ].join('\n'),
    );
    const summary = await runOpd({ prompts: file, teacher: 'base' }, join(scratch, 'bad'));
    expect(summary).toMatchObject({
      read: 5,
      rows: { distillation: 2, gkd: 0 },
      withoutReference: 1,
      rejected: 3,
    });
    expect(summary.read).toBe(summary.rows.distillation + summary.rejected);
    expect(summary.byReason).toEqual({
      duplicate_id: 1,
      invalid_prompt: 1,
      reference_fails_constraints: 1,
      syntax_error: 1,
    });
    const rejects = (await readFile(join(scratch, 'bad/rejects.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rejects.map((entry) => [entry.line, entry.reason])).toEqual([
      [1, 'reference_fails_constraints'],
      [3, 'duplicate_id'],
      [4, 'invalid_prompt'],
      [5, 'syntax_error'],
    ]);
    expect(rejects[2].reason_text).toContain('the last message must be the user’s');
  });

  it('splits the prompts between shards whose union is the whole run', async () => {
    const rowsOf = async (dir: string) =>
      (await readFile(join(dir, 'distillation.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).id);
    await runOpd({ prompts, teacher: 'base' }, join(scratch, 'whole'));
    const parts = [];
    for (const index of [0, 1, 2]) {
      const summary = await runOpd({ prompts, teacher: 'base' }, join(scratch, `shard-${index}`), {
        shard: { index, count: 3 },
      });
      parts.push(...(await rowsOf(join(scratch, `shard-${index}`))));
      expect(summary.read).toBe(summary.rows.distillation + summary.rejected);
    }
    expect(parts.sort()).toEqual((await rowsOf(join(scratch, 'whole'))).sort());
  });
});

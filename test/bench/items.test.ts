// The live-stream benchmark items: at least 100 valid items, golds valid under the fixture harness, and the
// committed file exactly what scripts/generate-bench-items.ts writes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type BenchItemRecord, parseBenchItem, readBenchItems } from '../../src/bench/items.js';
import type { BenchItem } from '../../src/bench/schema.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import type { Harness } from '../../src/harness/schema.js';
import { validateTrajectory } from '../../src/trajectory/validate-trajectory.js';
import { projectRoot } from '../support/run-cli.js';

const itemsFile = join(projectRoot, 'fixtures/livestream/bench/items.jsonl');
let harness: Harness;
let records: BenchItemRecord[];
let items: BenchItem[];

beforeAll(async () => {
  harness = await loadHarnessFile(join(projectRoot, 'fixtures/livestream/harness.yaml'));
  records = [];
  for await (const record of readBenchItems(itemsFile)) records.push(record);
  items = records.flatMap((record) => ('item' in record ? [record.item] : []));
});

describe('fixtures/livestream/bench/items.jsonl', () => {
  it('holds at least 100 valid items with unique ids, numbered in order', () => {
    expect(records.filter((record) => 'issues' in record)).toEqual([]);
    expect(items.length).toBeGreaterThanOrEqual(100);
    expect(items.map((item) => item.id)).toEqual(
      items.map((_, index) => `item-${String(index + 1).padStart(4, '0')}`),
    );
    expect(records.map((record) => record.line)).toEqual(items.map((_, index) => index + 1));
  });

  it('derives every item from a valid single-turn gold ending in a plain reply', () => {
    for (const item of items) {
      const validation = validateTrajectory(item.gold, harness);
      expect(validation.issues, item.id).toEqual([]);
      expect(item.harness.id).toBe(harness.id);
      expect(item.meta?.source).toBe(item.gold.id);
      expect(item.input).toHaveLength(1);
      expect(item.input[0]?.role).toBe('user');
      const last = item.gold.messages.at(-1);
      expect(last?.role === 'assistant' && !last.hsa && typeof last.content === 'string', item.id).toBe(true);
    }
  });

  it('is diverse across scenarios and languages', () => {
    const scenarios = new Set(items.map((item) => item.meta?.scenario));
    const languages = new Set(items.map((item) => item.meta?.language));
    expect(scenarios.size).toBeGreaterThanOrEqual(10);
    expect(languages).toEqual(new Set(['en', 'zh']));
  });

  it('has expectations drawn from the gold and the harness', () => {
    const tools = new Map(harness.tools.items.map((tool) => [tool.name, tool]));
    const skills = new Set(harness.skills.items.map((skill) => skill.id));
    for (const item of items) {
      const reply = item.gold.messages.at(-1)?.content ?? '';
      for (const call of item.expect.toolCalls) {
        const tool = tools.get(call.name);
        expect(tool, `${item.id} ${call.name}`).toBeDefined();
        const required = (tool?.parameters as { required?: string[] } | undefined)?.required ?? [];
        expect(Object.keys(call.arguments).every((key) => required.includes(key))).toBe(true);
      }
      for (const skill of item.expect.skills) expect(skills.has(skill), `${item.id} ${skill}`).toBe(true);
      expect(item.expect.facts.length).toBeLessThanOrEqual(3);
      for (const fact of item.expect.facts) expect(reply).toContain(fact);
      expect(item.expect.forbidden).toContain('best');
      expect(item.expect.forbidden).toContain('祛痘');
    }
    expect(items.filter((item) => item.expect.toolCalls.length > 0).length).toBeGreaterThan(items.length / 2);
    expect(items.filter((item) => item.expect.facts.length > 0).length).toBeGreaterThan(items.length / 2);
    expect(items.some((item) => item.expect.facts.some((fact) => fact.startsWith('¥')))).toBe(true);
  });

  it('is exactly what the generator writes', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'hsa-bench-items-')), 'items.jsonl');
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(projectRoot, 'scripts/generate-bench-items.ts'), '--out', out],
      { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(readFileSync(out, 'utf8') === readFileSync(itemsFile, 'utf8')).toBe(true);
  });
});

describe('parseBenchItem / readBenchItems', () => {
  it('applies defaults and reports schema issues with paths', () => {
    const item = items[0] as BenchItem;
    const minimal = { ...item, expect: {} };
    const parsed = parseBenchItem(minimal);
    expect('item' in parsed && parsed.item.expect).toEqual({
      toolCalls: [],
      skills: [],
      facts: [],
      forbidden: [],
    });
    const bad = parseBenchItem({ ...item, input: [] });
    expect('issues' in bad && bad.issues.map((issue) => issue.path)).toEqual([['input']]);
  });

  it('turns bad lines into records with line numbers', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hsa-bench-items-')), 'items.jsonl');
    writeFileSync(file, `${JSON.stringify(items[0])}\n\n{oops\n${JSON.stringify({ id: 'x' })}\n`);
    const read: BenchItemRecord[] = [];
    for await (const record of readBenchItems(file)) read.push(record);
    expect(read.map((record) => [record.line, 'item' in record])).toEqual([
      [1, true],
      [3, false],
      [4, false],
    ]);
    const syntax = read[1] as { issues: Array<{ code: string }> };
    expect(syntax.issues[0]?.code).toBe('syntax_error');
    const schema = read[2] as { issues: Array<{ line?: number; file?: string }> };
    expect(schema.issues.every((issue) => issue.line === 4 && issue.file === file)).toBe(true);
  });
});

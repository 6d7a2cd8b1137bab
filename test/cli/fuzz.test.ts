// Fuzzing the boundaries a user or a client controls: harness files, trajectory files and env-server
// requests. Properties: never exit 3 (or HTTP 500), never hang past a generous per-case bound, never
// pollute Object.prototype, and rows read = written + rejected. In process, to keep the suite fast.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EnvServer, startEnvServer } from '../../src/adapters/env-http/server.js';
import { createEnvService } from '../../src/runtime/env/service.js';
import { harness as envHarness, scenario as envScenario } from '../support/env-episodes.js';
import { hsa } from '../support/run-hsa.js';
import { travelHarnessInput } from '../support/travel-harness.js';

const folder = mkdtempSync(join(tmpdir(), 'hsa-fuzz-'));
const fixtureHarness = 'fixtures/livestream/harness.yaml';
const fixtureLines = readFileSync('fixtures/livestream/trajectories.jsonl', 'utf8')
  .split('\n')
  .filter(Boolean);
const perCase = { timeout: 20_000 };
let file = 0;

const prototypeKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join();
const cleanPrototype = prototypeKeys();
const unpolluted = () => {
  expect(prototypeKeys()).toBe(cleanPrototype);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
};

/** A JSON value that may carry the keys that pollute careless code. */
const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted')),
      tie('value'),
      { maxKeys: 4 },
    ),
  ),
})).value;

/** Puts `value` at a random place of `target` (a JSON tree), or replaces the whole. */
function implant(target: unknown, path: number[], value: unknown): unknown {
  if (path.length === 0 || typeof target !== 'object' || target === null) return value;
  const keys = Object.keys(target);
  if (keys.length === 0) return value;
  const key = keys[(path[0] as number) % keys.length] as string;
  const copy = (Array.isArray(target) ? [...target] : { ...target }) as Record<string, unknown>;
  copy[key] = implant((target as Record<string, unknown>)[key], path.slice(1), value);
  return copy;
}

const asText = (value: unknown, raw: string | undefined) =>
  raw ?? JSON.stringify(value)?.replaceAll('"polluted"', '"__proto__"') ?? 'null';

describe('fuzz: harness files', () => {
  it('validate exits 0, 1 or 2, never 3, and pollutes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(), { maxLength: 6 }),
        hostileJson,
        fc.option(fc.string({ unit: 'binary' }), { freq: 4 }),
        fc.constantFrom('json', 'yaml'),
        async (path, value, raw, extension) => {
          const harness = implant(travelHarnessInput(), path, value);
          const target = join(folder, `harness-${file++}.${extension}`);
          writeFileSync(target, asText(harness, raw ?? undefined));
          const run = await hsa(['validate', target]);
          expect([0, 1, 2], run.stderr).toContain(run.status);
          expect(run.stderr).not.toMatch(/internal error/);
          unpolluted();
        },
      ),
      { numRuns: 120, ...perCase },
    );
  });
});

describe('fuzz: trajectory files', () => {
  it('augment reads = written + rejected, never exit 3', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.constantFrom(...fixtureLines.slice(0, 30)),
            fc
              .tuple(
                fc.constantFrom(...fixtureLines.slice(0, 30)),
                fc.array(fc.nat(), { maxLength: 5 }),
                hostileJson,
              )
              .map(([line, path, value]) => JSON.stringify(implant(JSON.parse(line), path, value))),
            fc.string({ unit: 'binary', maxLength: 40 }).map((text) => text.replaceAll('\n', ' ')),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        async (lines) => {
          const input = join(folder, `trajectories-${file}.jsonl`);
          const out = join(folder, `rows-${file++}.jsonl`);
          writeFileSync(input, `${lines.join('\n')}\n`);
          const run = await hsa([
            'augment',
            '--harness',
            fixtureHarness,
            '--trajectories',
            input,
            '--variants',
            '1',
            '-o',
            out,
            '--rejects',
            `${out}.rejects`,
            '--json',
          ]);
          expect([0, 1], run.stderr).toContain(run.status);
          const report = JSON.parse(run.stdout) as {
            read: number;
            augmented: number;
            rejectedExamples: number;
            rows: number;
            uncertified: number;
          };
          const nonBlank = lines.filter((line) => line.trim() !== '').length;
          expect(report.read).toBe(nonBlank);
          expect(report.read).toBe(report.augmented + report.rejectedExamples);
          const written = readFileSync(out, 'utf8').split('\n').filter(Boolean).length;
          const rejected = readFileSync(`${out}.rejects`, 'utf8').split('\n').filter(Boolean).length;
          expect(written).toBe(report.rows);
          expect(rejected).toBe(report.rejectedExamples + report.uncertified);
          unpolluted();
        },
      ),
      { numRuns: 25, ...perCase },
    );
  });
});

describe('fuzz: env-server requests', () => {
  let server: EnvServer;
  let service: ReturnType<typeof createEnvService>;
  beforeAll(async () => {
    service = createEnvService({ scenario: envScenario, harness: envHarness });
    server = await startEnvServer(service, { port: 0, maxBodyBytes: 64 * 1024 });
  });
  afterAll(async () => {
    await server.close();
    service.close();
  });

  it('answers every request with a 2xx or 4xx, never 500, and stays healthy', async () => {
    const reset = await fetch(`${server.url}/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const episode = ((await reset.json()) as { episode_id: string }).episode_id;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/reset', '/step', '/get_reward', '/health', '/nope'),
        fc.constantFrom('POST', 'GET', 'PUT'),
        fc.constantFrom('application/json', 'text/plain', undefined),
        fc.oneof(
          hostileJson.map((value) => JSON.stringify(value) ?? 'null'),
          fc
            .record({ episode_id: fc.oneof(fc.constant(episode), fc.string()), message: hostileJson })
            .map((value) => JSON.stringify(value)),
          fc.string({ unit: 'binary', maxLength: 200 }),
        ),
        async (path, method, contentType, body) => {
          const response = await fetch(`${server.url}${path}`, {
            method,
            headers: contentType ? { 'content-type': contentType } : {},
            ...(method === 'GET' ? {} : { body }),
          });
          const text = await response.text();
          expect(response.status, text).toBeLessThan(500);
          unpolluted();
        },
      ),
      { numRuns: 150, ...perCase },
    );
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

// A model endpoint that accepts and never answers: `--timeout` bounds each call, retries included, and the
// run ends with the reason instead of waiting 5 attempts × 60 s.

import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hsa } from '../support/run-hsa.js';

let server: Server;
let url: string;
const held: Array<{ destroy(): void }> = [];

beforeAll(async () => {
  // Reads each request and never answers it.
  server = createServer((request) => {
    held.push(request.socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('--timeout against an endpoint that never answers', () => {
  it('sim run --endpoint fails with the reason, not an internal error', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-endpoint-timeout-'));
    const run = await hsa([
      'sim',
      'run',
      '--scenario',
      'livestream',
      '--harness',
      'fixtures/livestream/harness.yaml',
      '--episodes',
      '1',
      '--endpoint',
      url,
      '--model',
      'never',
      '--timeout',
      '1',
      '--out',
      join(folder, 'sim.jsonl'),
    ]);
    expect([1, 2]).toContain(run.status);
    expect(run.stderr).toMatch(
      /no response within 1000 ms; gave up: the next try \(in \d+ ms\) would pass the call's deadline of 1000 ms/,
    );
  });

  it('latency --timeout: every episode fails within it, with the reason (exit 2)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hsa-latency-timeout-'));
    const run = await hsa([
      'latency',
      '--scenario',
      'livestream',
      '--harness',
      'fixtures/livestream/harness.yaml',
      '--episodes',
      '1',
      '--endpoint',
      url,
      '--model',
      'never',
      '--timeout',
      '1',
      '--out',
      folder,
    ]);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/every episode failed: .*no response within 1000 ms/);
  });

  it('--timeout has bounds and is stated in --help', async () => {
    const bad = await hsa([
      'sim',
      'run',
      '--scenario',
      'livestream',
      '--harness',
      'fixtures/livestream/harness.yaml',
      '--endpoint',
      url,
      '--model',
      'm',
      '--timeout',
      '1e9',
      '--out',
      join(tmpdir(), 'hsa-never-written.jsonl'),
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--timeout must be at most 3600, got 1e9/);
    const help = await hsa(['sim', 'run', '--help']);
    const text = help.stdout.replace(/\s+/g, ' ');
    expect(text).toMatch(
      /--timeout <seconds> seconds one model call may take, every retry and wait included \(default 60; at most 3600\)/,
    );
    const predict = (await hsa(['bench', 'predict', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(predict).toMatch(
      /--timeout <seconds> seconds one model call may take, .*\(default 60; at most 3600\)/,
    );
    const latency = (await hsa(['latency', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(latency).toMatch(/--timeout <seconds> seconds one model call may take \(default 60; at most 3600/);
  });
});

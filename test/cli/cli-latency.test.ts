// `hsa latency` end to end: the CLI replays live-stream episodes against a loopback OpenAI-compatible server
// that also answers /metrics in vLLM's format (a front server on 127.0.0.1 forwarding chat to the fake
// model server), writes latency.json / .md / .html, and reads the server-side histograms for its own
// requests only; bad options are usage errors (exit 2).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../support/fake-openai-server.js';
import { hsaCli, projectRoot } from '../support/run-cli.js';

function runCliAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [hsaCli(), ...args], {
      cwd: projectRoot,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

/** vLLM-shaped metrics whose counts grow by 10 requests per scrape. */
const metrics = (scrape: number) => `# TYPE vllm:e2e_request_latency_seconds histogram
vllm:e2e_request_latency_seconds_bucket{le="0.5",model_name="fake"} ${4 * scrape}
vllm:e2e_request_latency_seconds_bucket{le="1",model_name="fake"} ${9 * scrape}
vllm:e2e_request_latency_seconds_bucket{le="+Inf",model_name="fake"} ${10 * scrape}
vllm:e2e_request_latency_seconds_count{model_name="fake"} ${10 * scrape}
vllm:e2e_request_latency_seconds_sum{model_name="fake"} ${6 * scrape}
`;

let model: FakeOpenAIServer;
let front: ReturnType<typeof createServer>;
let url: string;
let scrapes = 0;
const scratch = await mkdtemp(join(tmpdir(), 'hsa-cli-latency-'));

beforeAll(async () => {
  model = await startFakeOpenAIServer({
    respond: () => ({ content: 'Link 3 is 59 yuan after the coupon.' }),
  });
  front = createServer(async (request, response) => {
    if (request.url === '/metrics') {
      scrapes++;
      response.writeHead(200, { 'content-type': 'text/plain' }).end(metrics(scrapes));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = await fetch(`${model.rootURL}${request.url}`, {
      method: request.method ?? 'GET',
      headers: { 'content-type': 'application/json' },
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    response.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
    });
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => front.close(() => resolve()));
  await model.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('hsa latency', () => {
  it('replays live-stream episodes and writes the report with the server histograms', async () => {
    const out = join(scratch, 'report');
    const run = await runCliAsync([
      'latency',
      ...['--endpoint', url, '--model', 'fake', '--harness', 'fixtures/livestream/harness.yaml'],
      ...[
        '--scenario',
        'livestream',
        '--episodes',
        '4',
        '--concurrency',
        '2',
        '--deadline',
        '15',
        '--out',
        out,
      ],
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('server /metrics: read');
    const report = JSON.parse(await readFile(join(out, 'latency.json'), 'utf8'));
    expect(report).toMatchObject({
      scenario: 'livestream',
      episodes: 4,
      concurrency: 2,
      errors: { episodes: 0 },
    });
    expect(report.modelCalls).toBe(model.stats.requests);
    expect(report.timeToFirstToken.count).toBe(report.modelCalls);
    // Two scrapes: the difference is one scrape's worth, 10 requests (4 ≤ 0.5 s, 5 more ≤ 1 s).
    expect(report.server.engine).toBe('vllm');
    expect(report.server.endToEnd).toMatchObject({ count: 10, meanMs: 600 });
    expect(await readFile(join(out, 'latency.md'), 'utf8')).toContain('| turn (end to end) |');
    expect(await readFile(join(out, 'latency.html'), 'utf8')).toContain('<svg');
  }, 120_000);

  it('refuses bad options as usage errors', async () => {
    const run = await runCliAsync([
      'latency',
      ...['--endpoint', url, '--model', 'fake', '--harness', 'fixtures/livestream/harness.yaml'],
      ...['--scenario', 'livestream', '--concurrency', '0'],
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--concurrency must be at least 1');
  }, 60_000);
});

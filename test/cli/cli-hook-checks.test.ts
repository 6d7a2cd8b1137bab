// One custom hook check module (a confirmation policy, test/support/airline-checks.ts) through every
// command that reads a harness: each refuses the harness without `--hook-checks` and runs it with it. The
// harness and logs are τ-bench-shaped (turns of 23 and 25 steps), so `sim run` also shows the step limit.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { airlineChecksModule, writeAirline } from '../support/airline.js';
import { startFakeOpenAIServer } from '../support/fake-openai-server.js';
import { hsaArgv, projectRoot, runCli } from '../support/run-cli.js';

const dir = await mkdtemp(join(tmpdir(), 'hsa-hook-checks-'));
const airline = await writeAirline(dir);
const checks = ['--hook-checks', airlineChecksModule];
const servers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/** The CLI in a child process without blocking this one (for commands that talk to a server here). */
function runCliAsync(
  args: string[],
  until?: RegExp,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, hsaArgv(args), {
      cwd: projectRoot,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (until?.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const ok = (run: { status: number | null; stderr: string }) => {
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
};

describe('--hook-checks through every command', () => {
  it('validate, augment and explain', { timeout: 300_000 }, () => {
    const validate = ['validate', airline.harness, '--trajectories', airline.trajectories];
    const refused = runCli(validate);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr + refused.stdout).toMatch(/user_confirmed/);
    ok(runCli([...validate, ...checks]));
    const rows = join(dir, 'rows.jsonl');
    const augment = ['augment', '--harness', airline.harness, '--trajectories', airline.trajectories];
    // Operators that cannot apply to this small harness warn on stderr; the run itself succeeds.
    expect(runCli([...augment, '--variants', '2', '--out', rows, ...checks]).status).toBe(0);
    expect(readFileSync(rows, 'utf8').trim().split('\n').length).toBeGreaterThan(0);
    const explain = ['explain', rows, '--harness', airline.harness, '--limit', '1'];
    expect(runCli(explain).status).toBe(1);
    const explained = runCli([...explain, ...checks]);
    ok(explained);
    expect(explained.stdout).toMatch(/change\(s\) against the base/);
  });

  it('sim run: the whole log under the default step limit, truncated episodes counted under a low one', {
    timeout: 300_000,
  }, async () => {
    const sim = ['sim', 'run', '--scenario', 'replay', '--harness', airline.harness];
    const args = [...sim, '--trajectories', airline.trajectories, '--out', join(dir, 'sim.jsonl')];
    const refused = runCli(args);
    expect(refused.status).toBe(1);
    expect(refused.stderr + refused.stdout).toMatch(/user_confirmed/);
    const run = runCli([...args, ...checks]);
    ok(run);
    expect(run.stdout).toMatch(/valid under their harness: 2 \/ 2/);
    expect(run.stdout).toMatch(/truncated at the step limit: 0 \/ 2/);
    expect(run.stdout).toMatch(
      /toolCallMatch 1\.0000, skillSelection 1\.0000, hookCompliance 1\.0000, grounding 1\.0000/,
    );
    expect(run.stdout).toMatch(/script deviations: 0/);
    const played = (await readFile(join(dir, 'sim.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(played.map((trajectory) => trajectory.messages)).toEqual(
      airline.golds.map((gold) => gold.messages),
    );

    const cut = runCli([...args, ...checks, '--max-steps', '12', '--out', join(dir, 'cut.jsonl')]);
    expect(cut.stderr).toBe('');
    expect(cut.stdout).toMatch(/truncated at the step limit: 2 \/ 2 \(raise --max-steps\)/);
    expect(cut.stdout).not.toMatch(/script deviations: 0/);
    const report = (await readFile(join(dir, 'cut.rewards.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(report.map((row) => row.truncated)).toEqual([
      { turns: [0], maxStepsPerTurn: 12 },
      { turns: [0], maxStepsPerTurn: 12 },
    ]);
    expect(runCli([...args, ...checks, '--max-steps', '0']).status).toBe(2);
  });

  it('env serve', { timeout: 300_000 }, async () => {
    const args = ['env', 'serve', '--scenario', 'replay', '--harness', airline.harness];
    const serve = [...args, '--trajectories', airline.trajectories, '--port', '0', '--max-steps', '30'];
    const refused = await runCliAsync(serve);
    expect(refused.status).toBe(1);
    expect(refused.stderr + refused.stdout).toMatch(/user_confirmed/);
    const served = await runCliAsync([...serve, ...checks], /Ctrl-C to stop/);
    expect(served.stderr).toBe('');
    expect(served.stdout).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
  });

  it('latency, against a model server', { timeout: 300_000 }, async () => {
    const model = await startFakeOpenAIServer({ respond: () => ({ content: 'R100 can move.' }) });
    servers.push(model);
    const args = ['latency', '--endpoint', model.url, '--model', 'agent', '--scenario', 'replay'];
    const latency = [...args, '--harness', airline.harness, '--trajectories', airline.trajectories];
    const out = ['--out', join(dir, 'latency')];
    expect((await runCliAsync([...latency, ...out])).status).toBe(1);
    const run = await runCliAsync([...latency, ...out, ...checks]);
    ok(run);
    expect(run.stdout).toMatch(/2 episodes, 4 turns/);
  });

  it('bench generate, import trajectories and pipeline run', async () => {
    const items = join(dir, 'items.jsonl');
    await writeFile(
      items,
      airline.golds
        .map((gold) =>
          JSON.stringify({
            id: gold.id,
            harness: { id: 'airline' },
            input: gold.messages.filter((message) => message.role === 'user'),
            expect: { skills: ['flight_changes'] },
            gold,
          }),
        )
        .map((line) => `${line}\n`)
        .join(''),
    );
    const bench = ['bench', 'generate', '--items', items, '--harness', airline.harness, '--variants', '1'];
    const benchOut = ['--out', join(dir, 'bench.jsonl')];
    expect(runCli([...bench, ...benchOut]).status).not.toBe(0);
    ok(runCli([...bench, ...benchOut, ...checks]));

    const logs = join(dir, 'logs.jsonl');
    await writeFile(
      logs,
      airline.golds.map((gold) => `${JSON.stringify({ id: gold.id, messages: gold.messages })}\n`).join(''),
    );
    const imports = [
      'import',
      'trajectories',
      logs,
      '--harness',
      airline.harness,
      '--out',
      join(dir, 'imported.jsonl'),
    ];
    expect(runCli(imports).status).toBe(1);
    const imported = runCli([...imports, ...checks]);
    ok(imported);
    expect(imported.stdout).toMatch(/read 2 log lines: 2 written \+ 0 rejected/);

    const config = join(dir, 'pipeline.yaml');
    const configText = (withChecks: boolean) =>
      `harness: ${JSON.stringify(airline.harness)}\ninputs: { trajectories: ${JSON.stringify(airline.trajectories)} }\naugment: { variants: 1 }\nexports: [trl]\nout: ${JSON.stringify(join(dir, withChecks ? 'pipeline' : 'pipeline-refused'))}\n${withChecks ? `hookChecks: ${JSON.stringify(airlineChecksModule)}\n` : ''}`;
    await writeFile(config, configText(false));
    expect(runCli(['pipeline', 'run', config]).status).toBe(1);
    // The option and the config key are the same registry.
    ok(runCli(['pipeline', 'run', config, ...checks, '--out', join(dir, 'pipeline-option')]));
    await writeFile(config, configText(true));
    const piped = runCli(['pipeline', 'run', config], { typescript: true });
    ok(piped);
    // The bench stage reads the same checks: its gold walks the custom hooks as the SFT stage's did.
    await writeFile(
      config,
      `${configText(true)}bench: { items: ${JSON.stringify(items)}, variants: 1, pool: 2 }\n`,
    );
    ok(runCli(['pipeline', 'run', config, '--out', join(dir, 'pipeline-bench')], { typescript: true }));
    const manifest = JSON.parse(await readFile(join(dir, 'pipeline-bench', 'manifest.json'), 'utf8'));
    expect(manifest.bench).toMatchObject({ rows: 2 * airline.golds.length, rejected: 0 });
  }, 300_000);
});

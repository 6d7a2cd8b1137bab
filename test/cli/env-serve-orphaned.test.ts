// `npx hsa env serve` runs under `sh -c`, a child of npm: killing npm leaves the server's parent gone, and the
// server stopped listening only on a signal that never came (issue 40, item 7). Under npm (`npm_command` set)
// it now stops when its parent exits. Here the parent is a small Node process that plays npm's part.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hsaCli, projectRoot } from '../support/run-cli.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
}

describe('hsa env serve under npm', () => {
  it('stops listening when the npm process that started it is killed', async () => {
    // The parent starts the server with npm's environment, prints its pid, and stays until killed.
    const parentScript = `
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ${JSON.stringify([hsaCli(), 'env', 'serve', '--scenario', 'livestream', '--harness', `${projectRoot}/fixtures/livestream/harness.yaml`, '--port', '0'])},
        { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, npm_command: 'exec' } });
      console.log('child ' + child.pid);
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ['-e', parentScript], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    parent.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    expect(await until(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(output), 60_000), output).toBe(
      true,
    );
    const childPid = Number(/child (\d+)/.exec(output)![1]);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
    expect((await fetch(`${url}/health`)).ok).toBe(true);

    parent.kill('SIGKILL');
    try {
      expect(await until(() => !alive(childPid), 10_000), 'the server outlived its parent').toBe(true);
      await expect(fetch(`${url}/health`)).rejects.toThrow();
    } finally {
      if (alive(childPid)) process.kill(childPid, 'SIGKILL');
    }
  }, 90_000);
});

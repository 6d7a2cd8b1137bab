// Bad data that was accepted or crashed (issue 44, item 4): each is refused with a located one-line message
// and exit 1 or 2, or escaped on its way to the terminal.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { startFakeOpenAIServer } from '../support/fake-openai-server.js';
import { projectRoot } from '../support/run-cli.js';
import { hsa } from '../support/run-hsa.js';

const folder = mkdtempSync(join(tmpdir(), 'hsa-hostile-data-'));
const fixtureHarness = join(projectRoot, 'fixtures/livestream/harness.yaml');
const fixtureTrajectories = join(projectRoot, 'fixtures/livestream/trajectories.jsonl');
const harnessValue = () => YAML.parse(readFileSync(fixtureHarness, 'utf8'));

describe('bad data is refused where it is read', () => {
  it('a tool schema whose $ref leads back to itself fails validate, located, instead of overflowing later', async () => {
    const harness = harnessValue();
    harness.tools.items[0].parameters.$ref = '#';
    const file = join(folder, 'self-ref.json');
    writeFileSync(file, JSON.stringify(harness));
    const trajectories = join(folder, 'two.jsonl');
    writeFileSync(
      trajectories,
      `${readFileSync(fixtureTrajectories, 'utf8').split('\n').slice(0, 2).join('\n')}\n`,
    );
    const run = await hsa(['validate', file, '--trajectories', trajectories]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      /tools\.items\[?\.?0\]?\.parameters.*\$ref "#" leads back to a schema it came from/,
    );
  });

  it('a raw NUL byte inside a YAML scalar is refused with its line and column', async () => {
    const text = readFileSync(fixtureHarness, 'utf8').replace(/^id: (.*)$/m, 'id: "$1\u0000x"');
    const file = join(folder, 'nul.yaml');
    writeFileSync(file, text);
    const run = await hsa(['validate', file]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /nul\.yaml:\d+:\d+: invalid YAML: the control character U\+0000 is not allowed/,
    );
    expect(run.stderr).not.toContain('\u0000');
  });

  it('--workers 0 is refused', async () => {
    const run = await hsa([
      'augment',
      '--harness',
      fixtureHarness,
      '--trajectories',
      fixtureTrajectories,
      '--workers',
      '0',
      '-o',
      join(folder, 'never.jsonl'),
    ]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('hsa: --workers must be at least 1, got 0\n');
  });

  it("control characters of an endpoint's body are escaped on the terminal", async () => {
    const server = await startFakeOpenAIServer({
      faults: () => ({
        status: 400,
        body: { error: { message: 'bad\u0000model\u001b[2J\nnext', type: 'x' } },
      }),
    });
    try {
      const run = await hsa([
        'sim',
        'run',
        '--scenario',
        'livestream',
        '--harness',
        fixtureHarness,
        '--endpoint',
        server.url,
        '--model',
        'm',
        '--episodes',
        '1',
        '-o',
        join(folder, 'sim.jsonl'),
      ]);
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toContain('\\u0000');
      const controls = [...run.stderr].filter((character) => character < ' ' && character !== '\n');
      expect(controls).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

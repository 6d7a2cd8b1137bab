import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { harnessJsonSchema } from '../../src/harness/harness-json-schema.js';
import { hashHarness } from '../../src/harness/hash.js';
import { loadHarnessFile } from '../../src/harness/parse-harness.js';
import { renderSystemPrompt } from '../../src/harness/render-prompt.js';
import { version } from '../../src/version.js';
import { runCli } from '../support/run-cli.js';
import { travelContext, travelHarness, travelHarnessInput } from '../support/travel-harness.js';

let folder: string;
let harnessFile: string;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'hsa-cli-'));
  harnessFile = join(folder, 'travel.yaml');
  writeFileSync(harnessFile, YAML.stringify(travelHarnessInput()));
  writeFileSync(join(folder, 'context.json'), JSON.stringify(travelContext));
});

describe('hsa', () => {
  it('--help lists every command and exits 0', () => {
    const run = runCli(['--help']);
    expect(run.status).toBe(0);
    for (const command of ['validate', 'render', 'import', 'export', 'schema', 'hash'])
      expect(run.stdout).toContain(command);
  });

  it('--version prints the package version', () => {
    const run = runCli(['--version']);
    expect(run.stdout.trim()).toBe(version);
    expect(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version).toBe(
      version,
    );
  });

  it('exits 2 with one line for an unknown command or a missing file', () => {
    expect(runCli(['frobnicate']).status).toBe(2);
    const missing = runCli(['validate', join(folder, 'nope.yaml')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toBe(`hsa: ${join(folder, 'nope.yaml')}: cannot read: no such file`);
  });

  it('exits 2 naming file and position for malformed JSON and YAML, without a stack trace', () => {
    const json = join(folder, 'broken.json');
    writeFileSync(json, '{\n  "id": "x",\n  "skills": [1,,2]\n}\n');
    const jsonRun = runCli(['validate', json]);
    expect(jsonRun.status).toBe(2);
    expect(jsonRun.stderr.trim()).toBe(`hsa: ${json}:3:16: invalid JSON: expected a value`);
    const yaml = join(folder, 'broken.yaml');
    writeFileSync(yaml, 'id: x\nskills:\n  - a\n - b\n');
    const yamlRun = runCli(['validate', yaml]);
    expect(yamlRun.status).toBe(2);
    expect(yamlRun.stderr).toMatch(new RegExp(`^hsa: ${yaml.replaceAll('.', '\\.')}:4:\\d+: invalid YAML: `));
    expect(yamlRun.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(`${jsonRun.stderr}${yamlRun.stderr}`).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('validate exits 1 and prints one location: message line per issue', () => {
    const bad = join(folder, 'bad.yaml');
    const input = travelHarnessInput();
    input.tools.items[0]!.name = 'load_skill';
    (input.skills.items[0] as Record<string, unknown>).kind = 'answer';
    const text = YAML.stringify(input);
    writeFileSync(bad, text);
    const line = text.split('\n').findIndex((row) => row.includes('kind: answer')) + 1;
    const run = runCli(['validate', bad]);
    expect(run.status).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual([
      `${bad}:${line} $.skills.items[0].kind: Invalid option: expected one of "reply"|"strategy" [invalid_value]`,
    ]);
  });

  it('validate --json reports a valid harness', () => {
    const run = runCli(['validate', harnessFile, '--json']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).harness).toEqual({
      file: harnessFile,
      valid: true,
      id: 'airline-support',
      skills: 3,
      hooks: 7,
      sections: 4,
      tools: 3,
    });
  });

  it('render prints the system prompt for a context', () => {
    const run = runCli(['render', harnessFile, '--context', join(folder, 'context.json')]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('## Passenger\nPassenger: Ana Souza on HA 212');
  });

  it('render writes exactly the system message, to a pipe and to a file: no newline added (issue 40)', async () => {
    const context = JSON.parse(readFileSync(join(folder, 'context.json'), 'utf8'));
    const prompt = renderSystemPrompt(await loadHarnessFile(harnessFile), context);
    expect(prompt.endsWith('\n')).toBe(false);
    const piped = runCli(['render', harnessFile, '--context', join(folder, 'context.json')]);
    expect(piped.stdout).toBe(prompt);
    const file = join(folder, 'prompt.txt');
    expect(
      runCli(['render', harnessFile, '--context', join(folder, 'context.json'), '-o', file]).status,
    ).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(prompt);
  });

  it('render without the context a template needs exits 1 naming the section', () => {
    const run = runCli(['render', harnessFile]);
    expect(run.status).toBe(1);
    expect(run.stdout.trim()).toMatch(
      /^\$\.prompt\.sections\[3\]\.template: section "passenger" failed to render/,
    );
  });

  it('schema prints the JSON Schema generated from the zod schemas', () => {
    const run = runCli(['schema']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(harnessJsonSchema());
    expect(JSON.parse(run.stdout).properties.hooks).toBeDefined();
  });

  it('hash prints the harness and part hashes', () => {
    const run = runCli(['hash', harnessFile, '--json']);
    expect(run.status).toBe(0);
    const hashes = hashHarness(travelHarness());
    expect(JSON.parse(run.stdout)).toEqual({
      id: 'airline-support',
      hashes,
      versions: { skills: '3', hooks: '2', prompt: '5', tools: '7' },
    });
    expect(runCli(['hash', harnessFile]).stdout.split('\n')[0]).toBe(
      `harness  ${hashes.harness}  airline-support`,
    );
  });
});

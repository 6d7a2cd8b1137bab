// How the page tests read a Markdown page's steps and decide which run from the installed package.
import { describe, expect, it } from 'vitest';
import { notRunFromPackage, npmParts, pageSteps } from '../support/page-steps.js';

describe('pageSteps', () => {
  it('reads shell lines, inline npx/npm spans and programs in page order', () => {
    const page = [
      'Install with `npm install harness-augment`, then',
      '`npx hsa validate',
      'h.yaml` checks it; `hsa render` is a name.',
      '',
      '```sh',
      '# a comment line',
      'npx hsa augment --harness h.yaml \\',
      '  --out rows.jsonl   # rows',
      '',
      '```',
      '',
      '```text',
      'npx hsa printed this',
      '```',
      '',
      '```ts',
      "import { augment } from 'harness-augment';",
      '```',
      'Last, `npm start`.',
    ].join('\n');
    expect(pageSteps(page)).toEqual([
      { kind: 'command', text: 'npm install harness-augment', line: 1, exitStatus: 0 },
      { kind: 'command', text: 'npx hsa validate h.yaml', line: 2, exitStatus: 0 },
      {
        kind: 'command',
        text: 'npx hsa augment --harness h.yaml --out rows.jsonl   # rows',
        line: 7,
        exitStatus: 0,
      },
      { kind: 'program', language: 'ts', code: "import { augment } from 'harness-augment';\n", line: 17 },
      { kind: 'command', text: 'npm start', line: 19, exitStatus: 0 },
    ]);
  });

  it('takes the exit status the prose after a shell block states, up to the next one', () => {
    const page = [
      '```sh',
      'npx hsa import a',
      '```',
      '',
      '```text',
      'read 2 lines: 1 written + 1 rejected',
      '```',
      '',
      'One line is rejected, so the exit code is 1.',
      '',
      '```sh',
      'npx hsa validate b',
      '```',
    ].join('\n');
    expect(pageSteps(page).map((step) => step.kind === 'command' && step.exitStatus)).toEqual([1, 0]);
  });

  it('refuses a code block without a language, where a command could hide', () => {
    expect(() => pageSteps('text\n\n```\nnpx hsa --help\n```\n')).toThrow(
      /line 3: a code block without a language/,
    );
  });
});

describe('npmParts', () => {
  it('splits a command line into its npm commands', () => {
    expect(npmParts('npm install && npm run bench; cp a b')).toEqual([
      ['npm', 'install'],
      ['npm', 'run', 'bench'],
    ]);
  });
});

describe('notRunFromPackage', () => {
  it('runs commands for the installed package', () => {
    for (const command of [
      'npm install harness-augment',
      'npm init -y && npm pkg set type=module',
      'npx hsa augment --out rows.jsonl',
      'cp -r node_modules/harness-augment/fixtures .',
    ])
      expect(notRunFromPackage(command), command).toBeUndefined();
  });

  it('classifies patterns and commands on the clone', () => {
    expect(notRunFromPackage('npx hsa <command> --help')).toMatch(/^a pattern/);
    expect(notRunFromPackage('npx hsa …')).toMatch(/^a pattern/);
    for (const command of [
      'npm install && npm start',
      'npm test',
      'npm run bench',
      'npm install && npm pack',
      'git clone x',
    ])
      expect(notRunFromPackage(command), command).toMatch(/^in a clone/);
  });
});

// The options an augment worker thread starts with: a Worker refuses V8 and per-process options in its
// execArgv, so only those it accepts are handed on (and none at all when the thread needs nothing added:
// it then inherits its parent's per-thread options).
import { describe, expect, it } from 'vitest';
import { optionGroups, workerExecArgv } from '../../../src/pipeline/parallel/worker-exec-argv.js';

describe('workerExecArgv', () => {
  it('adds nothing and lets the thread inherit when there is nothing to add', () => {
    expect(workerExecArgv(['--heap-growing-percent=20', '--import', 'tsx'], [])).toBeUndefined();
  });

  it('drops the options a worker thread refuses and keeps the rest, with the loader after them', () => {
    const parent = ['--heap-growing-percent=20', '--conditions', 'development', '--max-semi-space-size=16'];
    expect(workerExecArgv(parent, ['--import', 'tsx'])).toEqual([
      '--conditions',
      'development',
      '--import',
      'tsx',
    ]);
  });

  it('keeps an option that needs an earlier one, tried together', () => {
    const tried: string[][] = [];
    const accepts = (execArgv: string[]) => {
      tried.push(execArgv);
      if (execArgv.includes('--v8-only')) return false;
      return !execArgv.includes('--prof-dir=x') || execArgv.includes('--prof');
    };
    expect(workerExecArgv(['--prof', '--v8-only', '--prof-dir=x'], ['--loader-flag'], accepts)).toEqual([
      '--prof',
      '--prof-dir=x',
      '--loader-flag',
    ]);
    // All at once first, then one option at a time after those kept.
    expect(tried[0]).toEqual(['--prof', '--v8-only', '--prof-dir=x']);
  });

  it('groups a flag with its value given as the next argument', () => {
    expect(optionGroups(['--import', 'tsx', '--no-warnings', '-r', 'x', '--title=t'])).toEqual([
      ['--import', 'tsx'],
      ['--no-warnings'],
      ['-r', 'x'],
      ['--title=t'],
    ]);
  });
});

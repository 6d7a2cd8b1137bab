// Exit codes by one rule: the outcome of a finished command and a thrown error are mapped in
// src/cli/exit-codes.ts, and no command sets `process.exitCode` by its own rule.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { errorExitCode, outcomeExitCode } from '../../src/cli/exit-codes.js';
import { HarnessAugmentError } from '../../src/harness/issues.js';
import { projectRoot } from '../support/run-cli.js';

describe('exit codes', () => {
  it('a finished command: 1 for any bad input, and for a filter that kept nothing', () => {
    expect(outcomeExitCode({})).toBe(0);
    expect(outcomeExitCode({ invalid: 0 })).toBe(0);
    expect(outcomeExitCode({ invalid: 1 })).toBe(1);
    expect(outcomeExitCode({ filtered: { dropped: 3, kept: 10 } })).toBe(0);
    expect(outcomeExitCode({ filtered: { dropped: 3, kept: 0 } })).toBe(1);
    expect(outcomeExitCode({ filtered: { dropped: 0, kept: 0 } })).toBe(0);
  });

  it('a thrown error: 2 for usage and I/O, 1 for bad content, 3 for anything else', () => {
    expect(errorExitCode(new HarnessAugmentError('x', { kind: 'usage' }))?.code).toBe(2);
    expect(errorExitCode(new HarnessAugmentError('x'))?.code).toBe(1);
    const io = Object.assign(new Error('no'), { code: 'ENOENT', syscall: 'open', path: 'a' });
    expect(errorExitCode(io)).toEqual({ code: 2, kind: 'usage' });
    expect(errorExitCode(new CommanderError(1, 'commander.unknownOption', 'bad'))?.code).toBe(2);
    expect(errorExitCode(new CommanderError(0, 'commander.helpDisplayed', ''))).toBeUndefined();
    expect(errorExitCode(new TypeError('bug'))).toEqual({ code: 3, kind: 'internal' });
  });

  it('no command sets process.exitCode itself: each ends through finishCommand', () => {
    const folder = join(projectRoot, 'src/cli/commands');
    const offenders = readdirSync(folder).filter((file) =>
      /process\.exitCode\s*=/.test(readFileSync(join(folder, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});

// The person talking to the agent is the `user` everywhere outside the live-stream scenario: the core, its
// schemas, options and wire format carry no shop word for them. `viewer` — as a word or as a part of an
// identifier or a string (`ViewerTurn`, `viewerMessages`, `viewer_mismatch`) — may appear only under
// src/scenarios/livestream/, whose shop legitimately has viewers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/run-cli.js';

const shopWord = /viewer/i;
const allowed = 'src/scenarios/livestream/';

function filesUnder(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((entry) => {
      const path = join(folder, entry);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

const checked = [...filesUnder(join(projectRoot, 'src')), ...filesUnder(join(projectRoot, 'perturbations'))]
  .map((file) => relative(projectRoot, file).split('\\').join('/'))
  .filter((path) => !path.startsWith(allowed));

describe('neutral vocabulary', () => {
  it('the pattern catches the word inside identifiers and strings, in any case', () => {
    for (const sample of ['ViewerTurn', 'viewerMessages', 'viewer_mismatch', 'isViewer', "'the VIEWER saw'"])
      expect(shopWord.test(sample)).toBe(true);
    expect(shopWord.test('userMessages')).toBe(false);
  });

  it('checks the source outside the live-stream scenario, and perturbations', () => {
    expect(checked.some((path) => path.startsWith('src/runtime/'))).toBe(true);
    expect(checked.some((path) => path.startsWith('perturbations/'))).toBe(true);
    expect(checked.some((path) => path.startsWith(allowed))).toBe(false);
  });

  it('no file there says viewer', () => {
    const offenders = checked.flatMap((path) =>
      readFileSync(join(projectRoot, path), 'utf8')
        .split('\n')
        .flatMap((line, index) => (shopWord.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});

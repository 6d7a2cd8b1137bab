// The live-stream shop's phrase tables are data (fixtures/livestream/phrases.json), checked when read.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HarnessAugmentError } from '../../../src/harness/issues.js';
import { bundledShopPhrases, loadShopPhrases, parseShopPhrases } from '../../../src/scenarios/index.js';

const file = new URL('../../../fixtures/livestream/phrases.json', import.meta.url);

describe('live-stream phrases', () => {
  it('reads the bundled tables, and the package ships them', () => {
    const phrases = bundledShopPhrases();
    expect(phrases).toEqual(loadShopPhrases(file));
    expect(Object.keys(phrases.compare_questions)).toContain('features');
    // package.json's `files`: an entry that is the file or a folder above it, and no exclusion of either.
    const files: string[] = JSON.parse(
      readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
    ).files;
    const path = 'fixtures/livestream/phrases.json';
    const covers = (entry: string) => path === entry || path.startsWith(`${entry}/`);
    expect(files.some((entry) => !entry.startsWith('!') && covers(entry))).toBe(true);
    expect(files.filter((entry) => entry.startsWith('!') && covers(entry.slice(1)))).toEqual([]);
  });

  it('rejects bad tables with every problem and its path', () => {
    const data = JSON.parse(readFileSync(file, 'utf8'));
    delete data.compare_questions.features;
    data.spam.push({ en: 'both', zh: '两种' });
    data.spec_questions.material.en = 'not a list';
    try {
      parseShopPhrases(data, 'phrases.json');
      expect.unreachable();
    } catch (error) {
      expect(HarnessAugmentError.isInstance(error)).toBe(true);
      const paths = (error as HarnessAugmentError).issues.map((issue) => issue.path.join('.'));
      expect(paths).toEqual(
        expect.arrayContaining(['compare_questions', 'spec_questions.material.en', 'spam.9']),
      );
    }
  });
});

// The shop's data files (catalog, phrases) are read by one rule: an unreadable file is a usage error, text
// that is not JSON or data the schema refuses is a content error naming the file, and the input is untouched.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HarnessAugmentError } from '../../../src/harness/issues.js';
import { loadShopCatalog, loadShopPhrases } from '../../../src/scenarios/index.js';

const folder = mkdtempSync(join(tmpdir(), 'hsa-shop-data-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function failure(read: () => unknown): HarnessAugmentError {
  try {
    read();
  } catch (error) {
    if (HarnessAugmentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the read to fail');
}

describe('shop data files', () => {
  for (const [what, load] of [
    ['shop catalog', loadShopCatalog],
    ['shop phrases', loadShopPhrases],
  ] as const) {
    it(`${what}: a missing file, text that is not JSON and refused data`, () => {
      const missing = failure(() => load(join(folder, 'missing.json')));
      expect(missing.kind).toBe('usage');
      expect(missing.message).toContain(`cannot read the ${what}`);

      const broken = join(folder, `${what}-broken.json`);
      writeFileSync(broken, '{"products": [');
      const syntax = failure(() => load(broken));
      expect(syntax.kind).toBe('invalid');
      expect(syntax.issues).toEqual([expect.objectContaining({ code: 'syntax_error', file: broken })]);
      expect(readFileSync(broken, 'utf8')).toBe('{"products": [');

      const refused = join(folder, `${what}-refused.json`);
      writeFileSync(refused, '{"unknown": 1}');
      const invalid = failure(() => load(refused));
      expect(invalid.message).toBe(`${refused}: invalid ${what}: ${invalid.issues.length} issue(s)`);
      expect(invalid.issues.length).toBeGreaterThan(0);
      for (const issue of invalid.issues) expect(issue.file).toBe(refused);
    });
  }
});

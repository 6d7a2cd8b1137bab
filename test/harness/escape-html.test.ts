// The one HTML escape: all five characters, so that any text reads as itself in an element or a quoted
// attribute; and every HTML page of the library writes text through it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/harness/escape-html.js';
import { projectRoot } from '../support/run-cli.js';

const readHtmlText = (html: string) =>
  html.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  );

function sourceFiles(folder: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((entry) => {
      const path = join(folder, entry);
      return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
    });
}

describe('escapeHtml', () => {
  it('escapes & < > " and \'', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  it('leaves none of the five characters bare and reads back as the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const html = escapeHtml(text);
        expect(html).not.toMatch(/[<>"']|&(?!(amp|lt|gt|quot|#39);)/);
        expect(readHtmlText(html)).toBe(text);
      }),
    );
  });

  it('is the only HTML escape of the source tree', () => {
    const owner = 'src/harness/escape-html.ts';
    const others = [
      ...sourceFiles(join(projectRoot, 'src')),
      ...sourceFiles(join(projectRoot, 'perturbations')),
    ]
      .map((file) => relative(projectRoot, file).split('\\').join('/'))
      .filter((path) => path !== owner)
      .filter((path) => /&amp;|function escapeHtml/.test(readFileSync(join(projectRoot, path), 'utf8')));
    expect(others).toEqual([]);
  });
});

// The README is the front door: it stays short, and every relative link in it, in CONTRIBUTING.md and in
// docs/ points at a file that exists (and, for `#anchor` links into Markdown, at a heading that exists).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/run-cli.js';

const README_LIMIT_BYTES = 15 * 1024;

function markdownFiles(): string[] {
  const docs = readdirSync(join(projectRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(projectRoot, 'docs', name));
  return [join(projectRoot, 'README.md'), join(projectRoot, 'CONTRIBUTING.md'), ...docs].sort();
}

// GitHub's heading anchors: lower case, punctuation dropped (except `-` and `_`), spaces to `-`.
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(match[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  const broken: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1] as string;
    if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const resolved = path === '' ? file : join(dirname(file), path);
    const where = `${relative(projectRoot, file)} → ${target}`;
    if (!existsSync(resolved)) {
      broken.push(`${where}: no such file`);
    } else if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile()) {
      if (!anchorsOf(resolved).has(anchor)) broken.push(`${where}: no such heading`);
    }
  }
  return broken;
}

describe('documentation', () => {
  it(`keeps the README under ${README_LIMIT_BYTES} bytes`, () => {
    expect(statSync(join(projectRoot, 'README.md')).size).toBeLessThanOrEqual(README_LIMIT_BYTES);
  });

  it('has no broken relative link in the README, CONTRIBUTING.md or docs/', () => {
    expect(markdownFiles().flatMap(brokenLinks)).toEqual([]);
  });

  it('finds a broken link when there is one', () => {
    // The checker itself can fail: a link to a heading this page does not have is reported.
    const page = join(projectRoot, 'README.md');
    expect(anchorsOf(page).has('quick-start')).toBe(true);
    expect(anchorsOf(page).has('no-such-heading')).toBe(false);
  });
});

// The one mention rule: identifiers are found as whole tokens, never inside paths, URLs, file names or longer names.
import { describe, expect, it } from 'vitest';
import { mentionStandsAlone, urlSpans } from '../../src/harness/mention-boundary.js';
import { findMentions, type SymbolEntry } from '../../src/harness/symbol-table.js';

const skill = (name: string): SymbolEntry => ({ kind: 'skill', name, definedAt: [] });
const spans = (text: string, name: string) =>
  findMentions({ path: [], text }, [skill(name)]).map((mention) => text.slice(mention.start, mention.end));
const standsAlone = (text: string, name: string) => {
  const start = text.indexOf(name);
  return mentionStandsAlone(text, start, start + name.length);
};

describe('mentionStandsAlone', () => {
  it('accepts a name between spaces, punctuation, brackets, quotes and backticks', () => {
    for (const text of [
      'Load skill-creator first.',
      'Load skill-creator.',
      'Load skill-creator, then reply.',
      '(skill-creator)',
      '"skill-creator"',
      'use `skill-creator` now',
      'skill-creator: makes skills',
      '「skill-creator」を使う',
    ])
      expect(standsAlone(text, 'skill-creator'), text).toBe(true);
  });

  it('rejects a name inside a longer identifier, a path, a file name or a URL', () => {
    for (const text of [
      '<skill-creator-path>/eval-viewer/generate.py',
      'cd skill-creator/scripts',
      'run ./skill-creator/scripts/init.py',
      'see skills/skill-creator',
      'open skill-creator.md',
      'C:\\skills\\skill-creator\\SKILL.md',
      'https://github.com/anthropics/skills/tree/main/skill-creator',
      'https://skill-creator.example.com',
      'pre-skill-creator',
      'skill-creator_v2',
      'me@skill-creator',
      '~skill-creator',
    ])
      expect(standsAlone(text, 'skill-creator'), text).toBe(false);
  });

  it('rejects a bare name that the next word says is a folder, but not a code span', () => {
    expect(standsAlone('copy it from the skill-creator directory', 'skill-creator')).toBe(false);
    expect(standsAlone('the skill-creator folder holds scripts', 'skill-creator')).toBe(false);
    expect(mentionStandsAlone('the `skill-creator` folder', 5, 18, { code: true })).toBe(true);
    expect(standsAlone('the skill-creator skill', 'skill-creator')).toBe(true);
  });

  it('admits the qualified forms a caller names', () => {
    const text = 'set get_price.link_id first';
    expect(mentionStandsAlone(text, 4, 13)).toBe(false);
    expect(mentionStandsAlone(text, 4, 13, { suffixes: ['.link_id'] })).toBe(true);
    expect(mentionStandsAlone(text, 14, 21, { prefixes: ['get_price.'] })).toBe(true);
  });

  it('reads a name after a namespace qualifier as a mention, as plugins and MCP clients write them', () => {
    // obra/superpowers' skills name each other `superpowers:<id>`: a rename that left these under the old
    // id named a skill the harness no longer has.
    for (const text of [
      'REQUIRED SUB-SKILL: Use superpowers:skill-creator',
      'Use the `superpowers:skill-creator` skill',
      'superpowers:skill-creator first',
    ])
      expect(standsAlone(text, 'skill-creator'), text).toBe(true);
    // A search term is not a qualifier: its key is a search key, or a term of its form stands beside it.
    for (const text of [
      'find them with `label:skill-creator`',
      'search is:pr is:open label:skill-creator',
      'search team:skill-creator is:open',
      'search foo:skill-creator bar:baz',
    ])
      expect(standsAlone(text, 'skill-creator'), text).toBe(false);
    // A qualifier glued to a path, a file name or another qualifier is still part of a longer token.
    for (const text of [
      'docs/plugin:skill-creator',
      'a.plugin:skill-creator',
      'x:plugin:skill-creator',
      '9:skill-creator',
    ])
      expect(standsAlone(text, 'skill-creator'), text).toBe(false);
  });

  it('finds URLs without their final stop', () => {
    const text = 'See https://example.com/a-b. Then go.';
    expect(urlSpans(text).map(([from, to]) => text.slice(from, to))).toEqual(['https://example.com/a-b']);
  });
});

describe('findMentions follows the rule', () => {
  it('finds only the standalone mentions', () => {
    const text =
      'Use skill-creator to start. Scripts live in `skill-creator/scripts/` and <skill-creator-path>/x.py; see https://x.dev/skill-creator or the skill-creator directory. Ask `skill-creator`.';
    expect(spans(text, 'skill-creator')).toEqual(['skill-creator', 'skill-creator']);
  });
});

// The learner's feature memo only saves time: every decision of real conversations (two bundled domains)
// gets the same features with and without it, and a memo that starts over when full changes nothing. A
// walk that offers names only (the uniform chooser's) offers the same names in the same order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  conversationOf,
  decisionsOf,
  endName,
  type ReadMessage,
  type ReadTool,
  walkMessage,
} from '../../src/learner/decisions.js';
import { FeatureCache, hashedParts, hashedWords } from '../../src/learner/text-features.js';
import { projectRoot } from '../support/run-cli.js';

function conversations(file: string, count: number) {
  return readFileSync(join(projectRoot, file), 'utf8')
    .trimEnd()
    .split('\n')
    .slice(0, count)
    .map((line) => JSON.parse(line) as { messages: ReadMessage[]; tools?: ReadTool[] });
}

describe('FeatureCache', () => {
  it('gives every decision the same features as computing them afresh', () => {
    for (const file of [
      'fixtures/helpdesk/demo/trajectories.jsonl',
      'fixtures/livestream/trajectories.jsonl',
    ]) {
      const shared = new FeatureCache();
      const tiny = new FeatureCache(8);
      for (const conversation of conversations(file, 6)) {
        const tools = conversation.tools ?? [];
        const fresh = decisionsOf(conversation.messages, tools);
        expect(fresh.length).toBeGreaterThan(0);
        expect(decisionsOf(conversation.messages, tools, shared)).toEqual(fresh);
        // Twice through the same memo (every text a hit), and through one that keeps starting over.
        expect(decisionsOf(conversation.messages, tools, shared)).toEqual(fresh);
        expect(decisionsOf(conversation.messages, tools, tiny)).toEqual(fresh);
      }
    }
  });

  it('keys by prefix and limit as well as by text', () => {
    const cache = new FeatureCache();
    const text = 'Reset the password with reset_password after verify_identity';
    expect(hashedWords('a', text, 256, cache)).toEqual(hashedWords('a', text));
    expect(hashedWords('b', text, 256, cache)).toEqual(hashedWords('b', text));
    expect(hashedWords('b', text, 2, cache)).toEqual(hashedWords('b', text, 2));
    expect(hashedWords('b', text, 2, cache)).toHaveLength(2);
    const parts = [['n', 'reset_password'] as const, ['d', text] as const];
    expect(hashedParts(parts, 256, cache)).toEqual(hashedParts(parts));
    // Two lists of parts whose texts joined would read the same are still told apart.
    expect(
      hashedParts(
        [
          ['n', 'reset'],
          ['d', 'x'],
        ],
        256,
        cache,
      ),
    ).toEqual(
      hashedParts([
        ['n', 'reset'],
        ['d', 'x'],
      ]),
    );
    expect(
      hashedParts(
        [
          ['n', 'reset1:dx'],
          ['d', ''],
        ],
        256,
        cache,
      ),
    ).toEqual(
      hashedParts([
        ['n', 'reset1:dx'],
        ['d', ''],
      ]),
    );
  });

  it('a names-only walk offers the names a full walk offers, in the same order', () => {
    for (const conversation of conversations('fixtures/helpdesk/demo/trajectories.jsonl', 6)) {
      const tools = conversation.tools ?? [];
      conversation.messages.forEach((message, index) => {
        if (message.role !== 'assistant') return;
        const offered = (namesOnly: boolean) => {
          const seen: string[][] = [];
          walkMessage(conversationOf(conversation.messages, index), tools, undefined, {
            // A fixed rule over what is offered: the same names give the same path.
            choose: (features, _target, exclude) => {
              const names = features.candidates.map((candidate) => candidate.name);
              seen.push([features.slot, ...names]);
              const open = names.filter((name) => !exclude.includes(name));
              return open[seen.length % Math.max(1, open.length)] ?? endName;
            },
            fill: () => 'x',
            kindOfKey: () => 'scalar',
            namesOnly,
          });
          return seen;
        };
        const full = offered(false);
        expect(full.length).toBeGreaterThan(0);
        expect(offered(true)).toEqual(full);
      });
    }
  });
});

// skill-content/preamble — adds a neutral preamble sentence to skill bodies; every rule and all ids stay.

import { z } from 'zod';
import {
  affectedCount,
  BoundedCache,
  defineOperator,
  type Harness,
  identityRelabel,
  type Skill,
} from '../../src/kit/index.js';
import { mentionsKey, sameMentions } from './protected-spans.js';
import { isMostlyCjk } from './rules.js';

// Each sentence only announces what follows: none adds an obligation ("Follow every rule below" over a
// skill whose steps are alternatives) or frames the skill as one about replies ("before you reply" over a
// procedure of tool calls).
const english = [
  'The rules below apply whenever this skill is loaded.',
  'The instructions of this skill follow.',
  'What follows is the guidance of this skill.',
  'This skill is set out below.',
] as const;
const chinese = ['以下规则适用于本技能。', '本技能的说明如下。', '以下为本技能的指引。'] as const;
const allPreambles: readonly string[] = [...english, ...chinese];

const headingLine = /^#{1,6}\s.*$/u;

/** The body with the sentence after its leading heading (if any), in a paragraph of its own. */
function withPreamble(body: string, sentence: string): string {
  const [first, ...rest] = body.split('\n');
  if (first !== undefined && headingLine.test(first)) {
    return [first, sentence, ...(rest[0] === '' ? [] : ['']), ...rest].join('\n');
  }
  return `${sentence}\n\n${body}`;
}

let checks = 0;
/**
 * How many bodies this process has checked for suitable preambles (cache misses): tests count work with it.
 *
 * @example
 * const before = preambleChecks(); await applyOperator(addPreamble, harness); preambleChecks() - before
 */
export function preambleChecks(): number {
  return checks;
}

// Which preambles suit a body depends on the body and the harness's identifiers only (`mentionsKey`), and
// variants share both: the answer is kept under their content.
// Pure function of content across runs: the preambles that suit a body, by body and identifiers.
const suitableCache = new BoundedCache<string, readonly string[]>(
  4 * 1024 * 1024,
  (key, sentences) => 2 * key.length + 64 * sentences.length + 64,
);

// The identifiers' key is as long as the harness has names: a cache key built from it for every body made a
// harness of 10,000 skills cost 10,000 × 10,000 characters hashed. Each key gets a short number instead,
// once per apply (numbers are never reused, so a forgotten key cannot alias a later one).
// Pure function of content across runs: a short number per identifiers key (numbers never reused).
const keyNumbers = new Map<string, number>();
let nextKeyNumber = 0;
function keyNumber(key: string): number {
  let number = keyNumbers.get(key);
  if (number === undefined) {
    if (keyNumbers.size >= 256) keyNumbers.clear();
    number = nextKeyNumber++;
    keyNumbers.set(key, number);
  }
  return number;
}

/** Preambles that suit a body: in its language, and mentioning no identifier of the harness. */
function suitable(skill: Skill, harness: Harness, key: number): readonly string[] {
  const cacheKey = `${key}\u0000${skill.body}`;
  const known = suitableCache.get(cacheKey);
  if (known) return known;
  checks++;
  const list = isMostlyCjk(skill.body) ? chinese : english;
  return suitableCache.set(
    cacheKey,
    list.filter((sentence) => sameMentions(skill.body, withPreamble(skill.body, sentence), harness)),
  );
}

/**
 * Adds a neutral preamble sentence, from a built-in list in the body's language (Chinese when it is mostly
 * CJK, English otherwise), to a share (= severity, at least one) of the skill bodies: after the body's
 * leading heading, or at the top. Bodies that already hold one of the preambles are left alone, as are
 * sentences that would read as a mention of an identifier. Ids do not change: the relabel is the identity.
 *
 * @example
 * await applyOperator(addPreamble, travelHarness(), { rng: 'seed', severity: 1 });
 * // baggage: "The rules below apply whenever this skill is loaded.\n\n- Use `get_baggage_policy` …"
 */
export const addPreamble = defineOperator({
  id: 'skill-content/preamble',
  // 2: sentences that only announce what follows (no "Follow every rule below", no "before you reply").
  version: 2,
  dimension: 'skill-content',
  mode: 'exact',
  description:
    'Adds a neutral preamble sentence to skill bodies (Chinese for Chinese bodies); rules and ids stay.',
  params: z.object({}),
  apply(harness, { rng, severity }) {
    if (harness.skills.items.length === 0) return { skip: 'the harness has no skills' };
    const key = keyNumber(mentionsKey(harness));
    const eligible = harness.skills.items.filter(
      (skill) =>
        !allPreambles.some((sentence) => skill.body.includes(sentence)) &&
        suitable(skill, harness, key).length > 0,
    );
    if (eligible.length === 0) return { skip: 'every skill body already has a preamble' };
    const chosen = new Set(rng.fork('skills').sample(eligible, affectedCount(severity, eligible.length)));
    const draws = rng.fork('sentences');
    const items = harness.skills.items.map((skill, index) =>
      chosen.has(skill)
        ? { ...skill, body: withPreamble(skill.body, draws.fork(index).pick(suitable(skill, harness, key))) }
        : skill,
    );
    return { harness: { ...harness, skills: { ...harness.skills, items } }, relabel: identityRelabel };
  },
});

// The viewer's phrase tables of the live-stream shop, read from JSON (fixtures/livestream/phrases.json):
// questions comparing two products by an aspect, questions about one spec, discovery searches, searches for
// things the shop does not carry, spam and over-long messages. Data, validated where the scenario is built
// and passed to the turn builders through the kit.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { HarnessAugmentError } from '../../harness/issues.js';
import { loadShopData, parseShopData } from './data-file.js';

/** Questions in English and Chinese; `{ref}` stands for the product where a question names one. */
const QuestionsSchema = z.strictObject({ en: z.array(z.string()).min(1), zh: z.array(z.string()).min(1) });
const OneLanguageSchema = z
  .strictObject({ en: z.string().optional(), zh: z.string().optional() })
  .refine((message) => (message.en === undefined) !== (message.zh === undefined), {
    message: 'a message is in exactly one language (en or zh)',
  });

/**
 * The schema of the live-stream shop's phrases.json.
 *
 * @example
 * const phrases = ShopPhrasesSchema.parse(JSON.parse(text)); // loadShopPhrases(file) reads a file
 */
export const ShopPhrasesSchema = z.strictObject({
  /** By compared aspect (a spec key); `features` is the fallback for any other aspect. */
  compare_questions: z
    .record(z.string(), QuestionsSchema)
    .refine((questions) => 'features' in questions, { message: 'needs the fallback aspect "features"' }),
  /** By spec key; each question holds `{ref}`. */
  spec_questions: z.record(z.string(), QuestionsSchema),
  discovery_queries: z
    .array(
      z.strictObject({
        en: z.string(),
        zh: z.string(),
        args: z.strictObject({
          en: z.record(z.string(), z.unknown()),
          zh: z.record(z.string(), z.unknown()),
        }),
      }),
    )
    .min(1),
  missing_queries: z
    .array(
      z.strictObject({
        en: z.string(),
        zh: z.string(),
        queries: z.strictObject({ en: z.array(z.string()).min(1), zh: z.array(z.string()).min(1) }),
        thing: z.tuple([z.string(), z.string()]),
      }),
    )
    .min(1),
  spam: z.array(OneLanguageSchema).min(1),
  long_messages: z.array(OneLanguageSchema).min(1),
});

/**
 * The phrase tables the simulated viewers speak from, as `parseShopPhrases` and `loadShopPhrases` return
 * them.
 */
export type ShopPhrases = z.output<typeof ShopPhrasesSchema>;
export type DiscoveryQuery = ShopPhrases['discovery_queries'][number];
export type MissingQuery = ShopPhrases['missing_queries'][number];
/** A spam or over-long message, in one language. */
export type OneLanguageMessage = ShopPhrases['spam'][number];

/**
 * Checks phrase data; bad phrases throw an error listing every problem with its path.
 *
 * @example
 * const phrases = parseShopPhrases(JSON.parse(text), 'phrases.json');
 */
export function parseShopPhrases(input: unknown, source = 'phrases'): ShopPhrases {
  return parseShopData(ShopPhrasesSchema, input, source, 'shop phrases');
}

/**
 * Reads a phrases file.
 *
 * @example
 * const phrases = loadShopPhrases('fixtures/livestream/phrases.json');
 */
export function loadShopPhrases(file: string | URL): ShopPhrases {
  return loadShopData(file, 'shop phrases', parseShopPhrases);
}

/** Where the bundled phrases lie: from src/ (tests, tsx) and from dist/ (the installed package). */
const bundledLocations = [
  new URL('../../../fixtures/livestream/phrases.json', import.meta.url),
  new URL('../../fixtures/livestream/phrases.json', import.meta.url),
  new URL('../fixtures/livestream/phrases.json', import.meta.url),
];

/**
 * The phrases of the bundled fixture, read and checked on each call: the scenario reads them once when it
 * is built and passes them on.
 *
 * @example
 * bundledShopPhrases().spam.length // 9
 */
export function bundledShopPhrases(): ShopPhrases {
  for (const location of bundledLocations) {
    let text: string;
    try {
      text = readFileSync(location, 'utf8');
    } catch {
      continue;
    }
    return parseShopPhrases(JSON.parse(text), 'fixtures/livestream/phrases.json');
  }
  throw new HarnessAugmentError(
    'the bundled shop phrases (fixtures/livestream/phrases.json) are not in this installation',
    { kind: 'usage' },
  );
}

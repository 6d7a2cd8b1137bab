// Vocabulary partitions: a renaming operator given `vocabulary: { part, parts }` only hands out new names
// whose hash falls in that part, so two runs given different parts never produce the same new name (e.g. a
// benchmark whose renamed tools and skills no training variant ever used). The part of a name depends on the
// name alone, so it is the same in every run, on every machine.
import { z } from 'zod';

/**
 * The operator param: the part (0-based) of `parts` disjoint vocabularies new names are drawn from.
 *
 * @example
 * const params = z.object({ severity: z.number(), vocabulary: VocabularyParam });
 */
export const VocabularyParam = z
  .strictObject({
    part: z.number().int().min(0),
    parts: z.number().int().min(2).max(64),
  })
  .refine((vocabulary) => vocabulary.part < vocabulary.parts, {
    message: 'part must be below parts',
    path: ['part'],
  })
  .optional()
  .describe(
    'Draw new names only from one part of a hash partition of all names: runs given different parts never share a new name.',
  );

export type Vocabulary = z.infer<typeof VocabularyParam>;

/**
 * The part of `parts` a name belongs to (FNV-1a over its UTF-16 code units).
 *
 * @example
 * vocabularyPart('use_skill', 2) // 0 or 1, the same everywhere
 */
export function vocabularyPart(name: string, parts: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) {
    hash ^= name.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % parts;
}

/**
 * Whether a name belongs to the vocabulary part (every name does without one).
 *
 * @example
 * inVocabulary('use_skill', { part: 1, parts: 2 })
 */
export function inVocabulary(name: string, vocabulary: Vocabulary): boolean {
  return !vocabulary || vocabularyPart(name, vocabulary.parts) === vocabulary.part;
}

/**
 * Restricts a new-name guard to a vocabulary part; without a vocabulary the guard is returned as is. The
 * part is checked first, so a name of another part is never reserved by the guard.
 *
 * @example
 * const accept = withinVocabulary(createNameGuard(harness), { part: 1, parts: 2 });
 */
export function withinVocabulary(
  accept: (candidate: string) => boolean,
  vocabulary: Vocabulary,
): (candidate: string) => boolean {
  if (!vocabulary) return accept;
  return (candidate) => inVocabulary(candidate, vocabulary) && accept(candidate);
}

// The proof of a pool entry: what the certificate checks of the entry's variant harness alone, computed once
// when the entry is made — the content and meaning of each part it changed, against the base, and its new
// names. A row drawn from the entry is certified by reference to it for every part its variant holds as the
// entry does, and runs only the checks its own text can change: the example's validity and hook decisions
// under the variant (told from its walk under the base where the entry's walk proof covers it:
// `proveWalk`), the inverse, and the content of the parts its own steps changed (`certify` records which
// were which in `Certificate.proof`).
import { HarnessAugmentError, type Issue } from '../harness/issues.js';
import type { Harness, HarnessPartName } from '../harness/schema.js';
import type { Relabel } from '../trajectory/relabel.js';
import { proveWalk, type WalkProof } from '../trajectory/walk-by-proof.js';
import { identifiersSignature } from './content-facts.js';
import {
  type ContentPreservation,
  checkPartContent,
  combinePartChecks,
  contentCheckedParts,
  type PartContentCheck,
} from './content-preservation.js';
import { checkNewNames, renamesKey } from './name-meaning.js';

/** What an entry proves once for every row drawn from it. */
export interface EntryProof {
  /** The entry's seed (`seed/<label>/<index>`), as rows name it. */
  readonly entry: string;
  readonly base: Harness;
  /** The entry's variant harness: a row's part is covered when it is this harness's part object. */
  readonly harness: Harness;
  /** What the entry's relabel renames (`renamesKey`): a row whose relabel renames otherwise reads other names. */
  readonly renames: string;
  /**
   * The identifiers the entry's harness defines (`identifiersSignature`): a part's content is read with the
   * mentions of every identifier, so a row that dropped a tool or added one reads its parts otherwise.
   */
  readonly identifiers: string;
  /** The content check of each part the entry does not share with the base. */
  readonly parts: ReadonlyMap<HarnessPartName, PartContentCheck>;
  /** The new-name check of the entry's renames. */
  readonly names: readonly Issue[];
  /**
   * Where an example's walk under the entry's variant can be told from its walk under the base
   * (`proveWalk`): a row drawn from the entry as it is is then not walked where its texts allow.
   */
  readonly walk?: WalkProof;
}

/**
 * Proves an entry: the content check of each part it changed and its new names, once.
 *
 * @example
 * const proof = proveEntry('42/pool/7', base, entry.harness, entry.relabel);
 * proof.parts.get('skills')?.issues // [] for an entry whose skills keep their content
 */
export function proveEntry(entry: string, base: Harness, harness: Harness, relabel: Relabel): EntryProof {
  const parts = new Map<HarnessPartName, PartContentCheck>();
  for (const part of contentCheckedParts) {
    if (base[part] !== harness[part]) parts.set(part, checkPartContent(base, harness, relabel, part));
  }
  const walk = proveWalk(base, harness, relabel);
  return Object.freeze({
    entry,
    base,
    harness,
    renames: renamesKey(relabel),
    identifiers: identifiersSignature(harness),
    parts,
    names: checkNewNames(base, harness, relabel),
    ...('proof' in walk ? { walk: walk.proof } : {}),
  });
}

/** The content and names checks of a row, and where each was answered. */
export interface ProvenChecks {
  content: ContentPreservation;
  names: Issue[];
  /** Checks answered by the entry's proof (`content.<part>`, `names`). */
  atEntry: string[];
  /** Checks of the content and names made for this row (`content.<part>`, `names`). */
  perRow: string[];
}

/**
 * The content and new-name checks of a row's variant, taking from `proof` each part the variant holds as the
 * entry does (the same object, under the same renames and the same identifiers) and checking the others. The
 * verdicts are those of `checkContentPreservation` and `checkNewNames`: a part's content check reads only the
 * base, the part, the identifiers the variant defines and the renames; the name check only the variant's
 * skills and tools and the renames — what the proof's were made of.
 *
 * @example
 * const { content, atEntry, perRow } = checksByProof(proof, base, rowVariant, rowRelabel);
 */
export function checksByProof(
  proof: EntryProof,
  base: Harness,
  variant: Harness,
  relabel: Relabel,
): ProvenChecks {
  if (proof.base !== base)
    throw new HarnessAugmentError(`the proof of entry ${proof.entry} was made for another base harness`, {
      kind: 'usage',
    });
  const sameRenames = renamesKey(relabel) === proof.renames;
  const sameReading = sameRenames && identifiersSignature(variant) === proof.identifiers;
  const atEntry: string[] = [];
  const perRow: string[] = [];
  const parts: PartContentCheck[] = [];
  for (const part of contentCheckedParts) {
    if (base[part] === variant[part]) continue;
    const proven = sameReading && variant[part] === proof.harness[part] ? proof.parts.get(part) : undefined;
    (proven ? atEntry : perRow).push(`content.${part}`);
    parts.push(proven ?? checkPartContent(base, variant, relabel, part));
  }
  const namesProven =
    sameRenames && variant.skills === proof.harness.skills && variant.tools === proof.harness.tools;
  (namesProven ? atEntry : perRow).push('names');
  return {
    content: combinePartChecks(parts),
    names: namesProven ? [...proof.names] : checkNewNames(base, variant, relabel),
    atEntry,
    perRow,
  };
}

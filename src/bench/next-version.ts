// The real-next-version bench: the items of harness version v, carried to the real version v+1. The edit is
// described by the drift describer (`describeEditWithRelabel`); an item that no task-changing change touches
// (`touchReasons`) has its gold moved by the edit's relabel and certified under v+1 as a variant's would be,
// and its answer key moved by the same relabel, exactly as `hsa bench generate` moves keys into a synthetic
// variant. Its rows are the item under v (variant 0, the row `hsa bench generate` writes with the same seed)
// and under v+1 verbatim (`<item>/next`), so that the gap between them is measured like a variant's gap. An
// item the edit touches, or whose carried gold fails the certificate, is marked for regeneration (a teacher
// under v+1) with its reasons, and never scored with a stale key.
import { certify } from '../augment/certificate.js';
import { dimensions } from '../augment/operator.js';
import type { DriftChange } from '../drift/describe-edit.js';
import { describeEditWithRelabel } from '../drift/describe-edit.js';
import { contentHash, hashHarness } from '../harness/hash.js';
import type { HookCheckRegistry } from '../harness/hook-checks.js';
import type { Issue } from '../harness/issues.js';
import { type RunContext, runContextOf } from '../harness/run-context.js';
import type { Harness } from '../harness/schema.js';
import { forwardFacts } from '../trajectory/facts.js';
import { identityRelabel, type Relabel } from '../trajectory/relabel.js';
import {
  admitItem,
  type BenchInput,
  type BenchReject,
  baseVariant,
  benchRowOf,
  checkExpectations,
  inputUnder,
  relabelExpectations,
} from './generate.js';
import { itemUses, touchReasons } from './next-version-touch.js';
import type { BenchItem, BenchRow } from './schema.js';

/** One side of the edit: a label (a file name, a short commit) and the harness hash. */
export interface VersionRef {
  label: string;
  hash: string;
}

/** The real edit between two versions, as the bench reads it. */
export interface NextVersionEdit {
  from: VersionRef;
  to: VersionRef;
  taskPreserving: boolean;
  changes: DriftChange[];
  /** Carries a trajectory of `from` into the vocabulary of `to` (the edit's renames). */
  relabel: Relabel;
}

/**
 * The edit from `before` to `after`, described once for every item.
 *
 * @example
 * const edit = describeNextVersion(v1, v2, { from: 'v1.yaml', to: 'v2.yaml' });
 */
export function describeNextVersion(
  before: Harness,
  after: Harness,
  labels: { from: string; to: string } = { from: 'before', to: 'after' },
): NextVersionEdit {
  const { changes, relabel, taskPreserving } = describeEditWithRelabel(before, after);
  return {
    from: { label: labels.from, hash: hashHarness(before).harness },
    to: { label: labels.to, hash: hashHarness(after).harness },
    taskPreserving,
    changes,
    relabel,
  };
}

/** What became of one item. */
export type NextVersionOutcome =
  | {
      decision: 'carried';
      itemId: string;
      /** The item under v+1: its gold, input and answer key moved into v+1's vocabulary. */
      item: BenchItem;
      /** The item under v (variant 0) and under v+1 (`<item>/next`). */
      rows: [BenchRow, BenchRow];
      /** Whether the answer key changed (a rename moved a name it holds). */
      keyMoved: boolean;
      /** Task changes elsewhere in the edit that this item does not touch, and certificate issues set aside. */
      notes: string[];
    }
  | {
      decision: 'regenerate';
      itemId: string;
      /** The item as given (under v): a teacher under v+1 redoes its gold. */
      item: BenchItem;
      reasons: string[];
    };

/** How `nextVersionBench` makes rows under a real next version: the seed, labels, tools vouched unrelated. */
export interface NextVersionOptions {
  /** The seed recorded in the rows' provenance; the default `0` is `hsa bench generate`'s, so variant 0 rows match. */
  seed?: string | number;
  labels?: { from: string; to: string };
  /** Added or redescribed tools and skills the user vouches no item's request needs (see `touchReasons`). */
  unrelated?: readonly string[];
  /**
   * The run the bench belongs to (`createRunContext`, or a CLI command's): its hook checks, and the facts
   * its certificates derive. Default: one of its own, with `hookChecks`.
   */
  run?: RunContext | undefined;
  /** The custom hook checks the harnesses name (default: none), when no `run` is given (or the run's own). */
  hookChecks?: HookCheckRegistry | undefined;
  onReject?: (reject: BenchReject) => void;
  /** Called once per item read (valid or not), for progress and counts. */
  onItem?: (position: number) => void;
}

/** Content and meaning issues of a tool's own texts carry their group's label as the path: `tools.<name>`. */
const toolOfIssue = (issue: Issue) => {
  const [label] = issue.path;
  return typeof label === 'string' && label.startsWith('tools.') ? label.slice('tools.'.length) : undefined;
};
const contentCodes = new Set([
  'protected_content_changed',
  'list_order_changed',
  'dependency_separated',
  'enumeration_broken',
  'procedure_unmarked',
  'template_changed',
]);

/**
 * Carries benchmark items of `before` to the real next version `after` (see the file comment), in order.
 * Items that cannot be read, repeat an id, name another harness or are invalid under `before` go to
 * `onReject`; every other item is carried or marked for regeneration. Deterministic.
 *
 * @example
 * for await (const outcome of nextVersionBench(v1, v2, readBenchItems('items.jsonl'), { labels }))
 *   if (outcome.decision === 'carried') rows.push(...outcome.rows);
 * // In a run of your own (its hook checks, its memory budget):
 * nextVersionBench(v1, v2, items, { labels, run: createRunContext({ hookChecks }) });
 */
export async function* nextVersionBench(
  before: Harness,
  after: Harness,
  items: Iterable<BenchInput> | AsyncIterable<BenchInput>,
  options: NextVersionOptions = {},
): AsyncGenerator<NextVersionOutcome> {
  const edit = describeNextVersion(before, after, options.labels);
  const seed = String(options.seed ?? 0);
  // One run for the bench: its hook checks, and the facts its certificates derive.
  const run = runContextOf(options.run, options.hookChecks);
  const unrelated = new Set(options.unrelated ?? []);
  const reject = options.onReject ?? (() => {});
  const changed = dimensions.filter((dimension) =>
    edit.changes.some((change) => change.dimension === dimension),
  );
  const provenance = {
    seed,
    baseHash: edit.from.hash,
    ops: [],
    skipped: [],
    planned: changed,
    changed,
    nextVersion: {
      from: edit.from,
      to: edit.to,
      taskPreserving: edit.taskPreserving,
      changes: edit.changes.map((change) => `${change.dimension}/${change.kind}`),
    },
  };
  const variantId = `next_${contentHash({ from: edit.from.hash, to: edit.to.hash }).slice(7, 27)}`;
  const seen = new Set<string>();
  let position = -1;
  for await (const input of items as AsyncIterable<BenchInput>) {
    position++;
    options.onItem?.(position);
    const admitted = admitItem(input, seen, before, edit.from.hash);
    if ('reject' in admitted) {
      reject(admitted.reject);
      continue;
    }
    const { item } = admitted;
    const at = admitted.line === undefined ? {} : { line: admitted.line };
    const original = baseVariant(before, item, seed, run);
    if (!('row' in original)) {
      reject({ reason: 'uncertified', itemId: item.id, variantIndex: 0, ...at, issues: original.issues });
      continue;
    }
    const uses = itemUses(item, before, after, edit.relabel);
    const touched = touchReasons(edit.changes, uses, before, after, { unrelated });
    if (touched.length > 0) {
      yield { decision: 'regenerate', itemId: item.id, item, reasons: touched };
      continue;
    }
    const forward = forwardFacts(item.gold, edit.relabel, after, run);
    const certificate = certify({
      base: before,
      variant: after,
      original: item.gold,
      rewritten: forward.trajectory,
      relabel: edit.relabel,
      ...(forward.issues.length === 0 ? { forward } : {}),
      run,
    });
    // Set aside, listed, not hidden: a new name of the real version is the owner's (the name-meaning rule
    // judges names a variant invents), and a text of a tool the item never calls may lose content in a
    // task-changing edit (the describer names that change) without bearing on this item's task.
    const setAside = certificate.issues.filter((issue) => {
      if (issue.code === 'misleading_name') return true;
      const tool = toolOfIssue(issue);
      return contentCodes.has(issue.code) && tool !== undefined && !uses.tools.has(tool);
    });
    const remaining = certificate.issues.filter((issue) => !setAside.includes(issue));
    const { validUnderVariant, hooksAgree, inverseExact } = certificate.checks;
    if (remaining.length > 0 || !validUnderVariant || !hooksAgree || !inverseExact) {
      yield {
        decision: 'regenerate',
        itemId: item.id,
        item,
        reasons: remaining.map((issue) => `not certified under ${edit.to.label}: ${issue.message}`),
      };
      continue;
    }
    const expect = relabelExpectations(item.expect, before, edit.relabel);
    const problems = checkExpectations(expect, after);
    if (problems.length > 0) {
      yield {
        decision: 'regenerate',
        itemId: item.id,
        item,
        reasons: problems.map(
          (issue) => `the answer key does not hold under ${edit.to.label}: ${issue.message}`,
        ),
      };
      continue;
    }
    const notes = [
      ...edit.changes
        .filter((change) => !change.taskPreserving)
        .map(
          (change) =>
            `${change.kind} ${change.subjects.join(', ')}: ${change.subjects.some((subject) => unrelated.has(subject.split('.')[0] as string)) ? 'vouched unrelated' : 'not used by this item'}`,
        ),
      ...setAside.map(
        (issue) =>
          `set aside (${issue.code === 'misleading_name' ? 'a name of the real version' : 'a tool this item does not call'}): ${issue.message}`,
      ),
    ];
    const originalRow = benchRowOf(
      item,
      original.row,
      relabelExpectations(item.expect, before, identityRelabel),
      'test',
    );
    const nextRow = benchRowOf(
      item,
      {
        variantIndex: 1,
        variantId,
        harness: after,
        trajectory: forward.trajectory,
        relabel: edit.relabel,
        provenance: { ...provenance, variantSeed: `${seed}/${item.id}/next` },
        certificate: {
          ...certificate,
          // Scoped to the item: the checks of a variant, with the real version's own names and the texts of
          // tools the item never calls set aside.
          certified: true,
          scope: 'item',
          issues: [],
          ...(setAside.length > 0 ? { setAside } : {}),
        },
      },
      expect,
      'test',
      `${item.id}/next`,
    );
    const carried: BenchItem = {
      ...item,
      harness: { id: after.id, hash: edit.to.hash },
      input: inputUnder(item, forward.trajectory),
      expect,
      gold: {
        ...forward.trajectory,
        ...(item.gold.harness ? { harness: { id: after.id, hash: edit.to.hash } } : {}),
      },
      meta: { ...item.meta, carriedFrom: { label: edit.from.label, hash: edit.from.hash } },
    };
    yield {
      decision: 'carried',
      itemId: item.id,
      item: carried,
      rows: [originalRow, nextRow],
      keyMoved: JSON.stringify(expect) !== JSON.stringify(item.expect),
      notes,
    };
  }
}

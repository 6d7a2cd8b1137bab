// The SFT set by reference: each training example marks its offered tools and system prompt as derived from
// its harness (named by hash, the prompt with its request context), the harnesses written once each to
// `variants.jsonl` beside `examples.jsonl`; the exporters read the examples resolved, as inline examples.
import {
  createSidecarWriter,
  defaultSidecars,
  markDerived,
  openSidecars,
  resolveDerived,
} from '../augment/variant-sidecar.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { jsonLine } from '../harness/json-lines.js';
import type { Harness } from '../harness/schema.js';
import { readJsonl } from '../trajectory/read-jsonl.js';
import type { TrainingExample } from './teacher.js';

/** What an example's derived content was made from: its harness and request context. */
export interface ExampleSource {
  harness: Harness;
  context: Record<string, unknown>;
}

/** Writes training examples inline or by reference. */
export interface ExampleWriter {
  /** The example's line, and the sidecar line of its harness (empty when known, or inline). */
  write(example: TrainingExample, source: ExampleSource | undefined): { example: string; sidecar: string };
}

/**
 * A writer of training examples: by reference (default), or `inline` as they are. `known` holds the hashes
 * the sidecar already has (a resumed run reads them with `readSidecarHashes`).
 *
 * @example
 * const writer = createExampleWriter();
 * const { example, sidecar } = writer.write(trainingExample, { harness, context: trajectory.context });
 */
export function createExampleWriter(
  options: { inline?: boolean; known?: Iterable<string> } = {},
): ExampleWriter {
  const sidecar = createSidecarWriter(options.known ? { known: options.known } : {});
  return {
    write(example, source) {
      if (options.inline || !source) return { example: jsonLine(example), sidecar: '' };
      const entry = sidecar.harness(source.harness);
      const marked = markDerived(
        example,
        source.harness,
        source.context,
        { $ref: entry.hash },
        { context: source.context },
      );
      return { example: jsonLine(marked), sidecar: entry.sidecar };
    },
  };
}

/**
 * Reads the SFT set, inline or by reference (resolved through `variants.jsonl` beside it, or `sidecars`).
 *
 * @example
 * for await (const example of readTrainingExamples('out/pipeline/examples.jsonl')) await sink.write(example);
 */
export async function* readTrainingExamples(
  file: string,
  options: { sidecars?: readonly string[] } = {},
): AsyncGenerator<TrainingExample> {
  const sidecars = await openSidecars(options.sidecars ?? (await defaultSidecars(file)));
  try {
    for await (const record of readJsonl(file)) {
      if ('issue' in record) throw new HarnessAugmentError(`${file} is corrupt at line ${record.line}`);
      yield (await resolveDerived(record.value, sidecars, `${file}:${record.line}`)) as TrainingExample;
    }
  } finally {
    await sidecars.close();
  }
}

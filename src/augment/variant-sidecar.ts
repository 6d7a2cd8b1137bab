// Rows by reference: a row names its variant harness and relabel by content hash, and marks the content the
// harness determines (the offered tools, the system prompt) as derived; each harness and relabel is written
// once to a sidecar (`variants.jsonl`) beside the rows, and readers resolve a row back to its inline form
// byte for byte. Inline rows (`--inline-harness`) are read unchanged.
import { type FileHandle, open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { BoundedCache } from '../harness/bounded-cache.js';
import { contentHash, hashHarness } from '../harness/hash.js';
import { assertInputFile, decodeLine } from '../harness/input-file.js';
import { HarnessAugmentError } from '../harness/issues.js';
import { jsonLine } from '../harness/json-lines.js';
import { sharedChatCompletionTools, toChatCompletionTools } from '../harness/offered-tools.js';
import { renderSystemPrompt } from '../harness/render-prompt.js';
import type { Harness } from '../harness/schema.js';
import { parseJsonlLine, readJsonl } from '../trajectory/read-jsonl.js';
import type { Relabel } from '../trajectory/relabel.js';
import type { AugmentRow } from './augment.js';
import { DigestSet, digestOfContentHash } from './digest-set.js';

const HashSchema = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'a content hash sha256:<64 hex digits>');

/**
 * One line of a sidecar: a variant harness keyed by its harness hash (`hashHarness(harness).harness`), or
 * a relabel keyed by `contentHash(relabel)`.
 *
 * @example
 * SidecarLineSchema.parse(JSON.parse(line)).kind // 'harness' or 'relabel'
 */
export const SidecarLineSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('harness'),
    hash: HashSchema,
    harness: z.record(z.string(), z.unknown()),
  }),
  z.strictObject({
    kind: z.literal('relabel'),
    hash: HashSchema,
    relabel: z.strictObject({ steps: z.array(z.record(z.string(), z.unknown())) }),
  }),
]);

/**
 * One line of a variant sidecar file: a harness or a relabel that rows name by hash (`SidecarLineSchema`).
 */
export type SidecarLine = z.infer<typeof SidecarLineSchema>;

/** A reference to a sidecar entry, in place of the value. */
export interface SidecarReference {
  $ref: string;
}

/** Content a harness determines, left out of a row because a reader re-derives it from the harness. */
export interface DerivedMarker {
  $derived: 'offered_tools' | 'system_prompt';
}

const derivedTools: DerivedMarker = { $derived: 'offered_tools' };
const derivedPrompt: DerivedMarker = { $derived: 'system_prompt' };

/**
 * The sidecar file of a rows file: `<rows without .jsonl>.variants.jsonl`.
 *
 * @example
 * sidecarPathOf('out/augmented.jsonl') // 'out/augmented.variants.jsonl'
 */
export function sidecarPathOf(rowsFile: string): string {
  return `${rowsFile.replace(/\.jsonl$/i, '')}.variants.jsonl`;
}

/** The offered tools of a harness as JSON text, once per harness object. */
// Pure function of content across runs: a harness object's offered tools as JSON text.
const toolsText = new WeakMap<Harness, string>();
function offeredToolsText(harness: Harness): string {
  let text = toolsText.get(harness);
  if (text === undefined) {
    text = JSON.stringify(sharedChatCompletionTools(harness));
    toolsText.set(harness, text);
  }
  return text;
}

function renders(harness: Harness, context: Record<string, unknown>): string | undefined {
  try {
    return renderSystemPrompt(harness, context);
  } catch {
    return undefined;
  }
}

/**
 * A row that carries a variant harness and relabel: an augmented row (with its `trajectory`) or a bench row
 * (with its `input`: messages and tools, the system prompt rendered from a context the row does not hold).
 */
export interface RowWithVariant {
  harness: Harness;
  relabel: Relabel;
  trajectory?: AugmentRow['trajectory'];
  input?: { messages: ReadonlyArray<{ role: string; content?: unknown }>; tools?: unknown };
}

/**
 * A relabel's content hash, once per relabel object: the rows of a pool entry share its one relabel, which
 * every row's reference names.
 */
function relabelContentHash(relabel: Relabel): string {
  let hash = relabelHashes.get(relabel);
  if (hash === undefined) {
    hash = contentHash(relabel);
    relabelHashes.set(relabel, hash);
  }
  return hash;
}
// Pure function of content across runs: a relabel object's content hash (relabels are never mutated).
const relabelHashes = new WeakMap<Relabel, string>();

/** Writes rows by reference; it remembers which sidecar entries it has written. */
export interface SidecarWriter {
  /** The row's line, and the sidecar lines it introduces (empty when its harness and relabel are known). */
  write(row: RowWithVariant): { row: string; sidecar: string };
  /** The row by reference as a value (`write` stringifies it), and the sidecar lines it introduces. */
  reference(row: RowWithVariant): { row: Record<string, unknown>; sidecar: string };
  /** A harness's hash, and its sidecar line (empty when known), for rows of other shapes. */
  harness(harness: Harness): { hash: string; sidecar: string };
  /** What its memory of written entries holds: entries, and the bytes of their 16-byte digests' table. */
  readonly known: { readonly entries: number; readonly bytes: number };
}

/**
 * A writer of rows by reference. `known` holds the hashes the sidecar already has (a resumed run reads them
 * with `readSidecarHashes`), so each harness and relabel is written once, where a row first names it. The
 * writer remembers each written hash as a 16-byte digest (./digest-set.ts), not as its 71-character text:
 * rows with per-example steps each bring a variant of their own, so this memory grows with the rows.
 *
 * @example
 * const writer = createSidecarWriter();
 * for await (const row of augment(harness, trajectories, options)) {
 *   const lines = writer.write(row);
 *   rows.write(lines.row);
 *   sidecar.write(lines.sidecar);
 * }
 */
export function createSidecarWriter(options: { known?: Iterable<string> } = {}): SidecarWriter {
  const known = new DigestSet();
  for (const hash of options.known ?? []) known.add(digestOfContentHash(hash));
  const harnessEntry = (harness: Harness) => {
    const hash = hashHarness(harness).harness;
    if (!known.add(digestOfContentHash(hash))) return { hash, sidecar: '' };
    return { hash, sidecar: jsonLine({ kind: 'harness', hash, harness }) };
  };
  const reference = (row: RowWithVariant) => {
    const { hash: harnessHash, sidecar: harnessLine } = harnessEntry(row.harness);
    const relabelHash = relabelContentHash(row.relabel);
    let sidecar = harnessLine;
    if (known.add(digestOfContentHash(relabelHash)))
      sidecar += jsonLine({ kind: 'relabel', hash: relabelHash, relabel: row.relabel });
    return { row: referenceRow(row, harnessHash, relabelHash), sidecar };
  };
  return {
    harness: harnessEntry,
    reference,
    known: {
      get entries() {
        return known.size;
      },
      get bytes() {
        return known.bytes;
      },
    },
    write(row) {
      const { row: value, sidecar } = reference(row);
      return { row: jsonLine(value), sidecar };
    },
  };
}

/** The row with references in place of its harness and relabel, keys in their order. */
function referenceRow(
  row: RowWithVariant,
  harnessHash: string,
  relabelHash: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === 'harness') out[key] = { $ref: harnessHash };
    else if (key === 'relabel') out[key] = { $ref: relabelHash };
    else if (key === 'trajectory' && row.trajectory)
      out[key] = markDerived(row.trajectory, row.harness, row.trajectory.context ?? {});
    // A bench row's prompt was rendered from its item's context, which the row does not hold: tools only.
    else if (key === 'input' && row.input) out[key] = markDerived(row.input, row.harness, undefined);
    else out[key] = value;
  }
  return out;
}

/**
 * A copy of a trajectory-like value (`tools`, `messages`) whose offered tools and system prompt are markers
 * (`{ $derived, ...marker }`, the prompt's also with `promptMarker`) where `harness` makes them exactly so;
 * the rest, keys in their order, unchanged. `resolveDerived` undoes it.
 *
 * @example
 * const line = JSON.stringify(markDerived(example, harness, context, { $ref: hash }, { context }));
 */
export function markDerived(
  value: { tools?: unknown; messages: ReadonlyArray<{ role: string; content?: unknown }> },
  harness: Harness,
  context: Record<string, unknown> | undefined,
  marker: Record<string, unknown> = {},
  promptMarker: Record<string, unknown> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, part] of Object.entries(value)) {
    if (
      key === 'tools' &&
      part !== undefined &&
      // A trajectory moved into the harness holds its shared array: equal without writing it out.
      (part === sharedChatCompletionTools(harness) || JSON.stringify(part) === offeredToolsText(harness))
    )
      out[key] = { ...derivedTools, ...marker };
    else if (key === 'messages') {
      const [first, ...rest] = value.messages;
      const derived =
        context !== undefined && first?.role === 'system' && first.content === renders(harness, context);
      out[key] = derived
        ? [
            Object.fromEntries(
              Object.entries(first).map(([name, content]) => [
                name,
                name === 'content' ? { ...derivedPrompt, ...marker, ...promptMarker } : content,
              ]),
            ),
            ...rest,
          ]
        : part;
    } else out[key] = part;
  }
  return out;
}

/**
 * The hashes a sidecar file holds (none when it does not exist), for a resumed writer.
 *
 * @example
 * const writer = createSidecarWriter({ known: await readSidecarHashes('out/augmented.variants.jsonl') });
 */
export async function readSidecarHashes(file: string): Promise<string[]> {
  const index = await indexSidecars([file], { optional: true });
  const hashes = [...index.entries.keys()];
  await index.close();
  return hashes;
}

interface Entry {
  handle: FileHandle;
  file: string;
  line: number;
  offset: number;
  length: number;
}

/** The start every sidecar line has: it names the entry without parsing the line. */
const linePrefix = /^\{"kind":"(harness|relabel)","hash":"(sha256:[0-9a-f]{64})",/;

/** Where each entry of the sidecars is (file, line, bytes); lines are parsed and checked when first used. */
async function indexSidecars(
  files: readonly string[],
  options: { optional?: boolean } = {},
): Promise<{ entries: Map<string, Entry>; close(): Promise<void> }> {
  const entries = new Map<string, Entry>();
  const handles: FileHandle[] = [];
  const close = async () => {
    await Promise.all(handles.map((handle) => handle.close().catch(() => {})));
  };
  try {
    for (const file of files) {
      let handle: FileHandle;
      try {
        // A FIFO or device would block the open or read forever: only regular files are read.
        const info = await stat(file);
        if (!info.isFile()) await assertInputFile(file);
        handle = await open(file, 'r');
      } catch (error) {
        if (HarnessAugmentError.isInstance(error)) throw error;
        if (options.optional && (error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw new HarnessAugmentError(`${file}: cannot read the sidecar: ${(error as Error).message}`, {
          kind: 'usage',
        });
      }
      handles.push(handle);
      let offset = 0;
      let line = 0;
      let pending: Buffer = Buffer.alloc(0);
      const chunk = Buffer.alloc(1 << 20);
      const take = (bytes: Buffer, final: boolean): Buffer => {
        let start = 0;
        for (;;) {
          const end = bytes.indexOf(10, start);
          if (end < 0 && !final) break;
          const stop = end < 0 ? bytes.length : end;
          if (stop > start || end >= 0) {
            line++;
            const text = bytes.subarray(start, Math.min(stop, start + 120)).toString('utf8');
            if (text.trim() !== '') {
              const match = linePrefix.exec(text);
              if (!match)
                throw sidecarError(file, line, 'not a sidecar line ({"kind":"harness"|"relabel","hash":…})');
              const hash = match[2] as string;
              if (!entries.has(hash))
                entries.set(hash, { handle, file, line, offset: offset + start, length: stop - start });
            }
          }
          if (end < 0) break;
          start = end + 1;
        }
        offset += start;
        return bytes.subarray(start);
      };
      for (;;) {
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
        if (bytesRead === 0) break;
        pending = take(Buffer.concat([pending, chunk.subarray(0, bytesRead)]), false);
      }
      if (pending.length > 0) take(pending, true);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { entries, close };
}

function sidecarError(file: string, line: number, message: string): HarnessAugmentError {
  return new HarnessAugmentError(`${file}:${line}: ${message}`, {
    issues: [{ code: 'bad_sidecar_line', path: [], message, file, line }],
  });
}

/** Resolves references against a set of sidecar files. */
export interface SidecarResolver {
  /** The variant harness of a hash; `at` names the row that asks, for the error. */
  harness(hash: string, at: string): Promise<Harness>;
  relabel(hash: string, at: string): Promise<Relabel>;
  /** A row as `hsa augment --inline-harness` writes it: references and derived content resolved. */
  resolveRow(value: unknown, at: string): Promise<AugmentRow>;
  close(): Promise<void>;
}

/**
 * Opens sidecar files for reading (several: one per shard, in any order; a hash in several is read from
 * the first). Each line is checked against its hash when first used, and the parsed entries kept are
 * bounded by bytes (`cacheBytes`, default 16 MiB; an entry weighs 1.5× its line, as measured on `hat`
 * harnesses), so memory stays bounded whatever the sidecar size. A pool's entries are named by rows all
 * through a file: a bound of 64 entries (before) read and hashed most of them again and again.
 *
 * @example
 * const sidecars = await openSidecars(['out/shard-0.variants.jsonl', 'out/shard-1.variants.jsonl']);
 * const harness = await sidecars.harness(row.harness.$ref, 'out/rows.jsonl:3');
 */
export async function openSidecars(
  files: readonly string[],
  options: { cacheBytes?: number; lookedFor?: readonly string[] } = {},
): Promise<SidecarResolver> {
  const index = await indexSidecars(files);
  const cache = new BoundedCache<string, { value: unknown; weight: number }>(
    options.cacheBytes ?? 16 << 20,
    (hash, entry) => 2 * hash.length + entry.weight,
  );
  const where =
    files.length > 0
      ? files.join(', ')
      : `no sidecar was found${options.lookedFor ? ` (looked for ${options.lookedFor.join(', ')})` : ''}`;

  async function load(kind: 'harness' | 'relabel', hash: string, at: string): Promise<unknown> {
    const cached = cache.get(hash);
    if (cached !== undefined) return cached.value;
    const entry = index.entries.get(hash);
    if (!entry)
      throw new HarnessAugmentError(`${at}: ${kind} ${hash} is not in the sidecar: ${where}`, {
        issues: [{ code: 'missing_sidecar_entry', path: [kind], message: `${hash} is not in ${where}` }],
      });
    const bytes = Buffer.alloc(entry.length);
    await entry.handle.read(bytes, 0, entry.length, entry.offset);
    const decoded = decodeLine(bytes);
    if ('invalid' in decoded) throw sidecarError(entry.file, entry.line, decoded.invalid);
    const record = parseJsonlLine(decoded.text, entry.line, entry.file);
    if (!record || 'issue' in record)
      throw sidecarError(entry.file, entry.line, record ? record.issue.message : 'an empty line');
    const parsed = SidecarLineSchema.safeParse(record.value);
    if (!parsed.success)
      throw sidecarError(entry.file, entry.line, `not a sidecar line: ${parsed.error.issues[0]?.message}`);
    const line = record.value as SidecarLine;
    if (line.kind !== kind)
      throw sidecarError(
        entry.file,
        entry.line,
        `${hash} is a ${line.kind}, but ${at} names it as a ${kind}`,
      );
    const value = line.kind === 'harness' ? line.harness : line.relabel;
    const actual =
      line.kind === 'harness' ? hashHarness(value as Harness).harness : contentHash(value as Relabel);
    if (actual !== hash)
      throw sidecarError(
        entry.file,
        entry.line,
        `the ${kind} does not match its hash ${hash} (found ${actual})`,
      );
    cache.set(hash, { value, weight: 1.5 * entry.length + 256 });
    return value;
  }

  const harness = (hash: string, at: string) => load('harness', hash, at) as Promise<Harness>;
  const relabel = (hash: string, at: string) => load('relabel', hash, at) as Promise<Relabel>;

  return {
    harness,
    relabel,
    async resolveRow(value, at) {
      const row = value as Record<string, unknown>;
      if (typeof row !== 'object' || row === null || Array.isArray(row))
        throw new HarnessAugmentError(`${at}: not a row (an object)`);
      const harnessRef = referenceOf(row.harness);
      const relabelRef = referenceOf(row.relabel);
      if (harnessRef === undefined && relabelRef === undefined && !hasDerived(row.trajectory))
        return value as AugmentRow;
      const variant = harnessRef === undefined ? (row.harness as Harness) : await harness(harnessRef, at);
      const out: Record<string, unknown> = {};
      for (const [key, part] of Object.entries(row)) {
        if (key === 'harness') out[key] = variant;
        else if (key === 'relabel')
          out[key] = relabelRef === undefined ? part : await relabel(relabelRef, at);
        else if (key === 'trajectory' || key === 'input')
          out[key] = await resolveDerived(part, { harness }, at, variant);
        else out[key] = part;
      }
      return out as unknown as AugmentRow;
    },
    close: index.close,
  };
}

function referenceOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const reference = (value as Partial<SidecarReference>).$ref;
  return typeof reference === 'string' ? reference : undefined;
}

type Marker = DerivedMarker & Partial<SidecarReference> & { context?: Record<string, unknown> };

function isDerived(value: unknown, kind: DerivedMarker['$derived']): value is Marker {
  return typeof value === 'object' && value !== null && (value as DerivedMarker).$derived === kind;
}

function hasDerived(trajectory: unknown): boolean {
  const value = trajectory as { tools?: unknown; messages?: Array<{ content?: unknown }> } | null;
  return (
    isDerived(value?.tools, 'offered_tools') || isDerived(value?.messages?.[0]?.content, 'system_prompt')
  );
}

/**
 * Undoes `markDerived`: each marker becomes the offered tools or the system prompt of its harness (the
 * marker's `$ref` through the sidecars, else `harness`), the prompt rendered for the marker's context, else
 * the value's own.
 *
 * @example
 * const example = await resolveDerived(JSON.parse(line), sidecars, 'examples.jsonl:3');
 */
export async function resolveDerived(
  value: unknown,
  sidecars: Pick<SidecarResolver, 'harness'>,
  at: string,
  harness?: Harness,
): Promise<unknown> {
  if (!hasDerived(value)) return value;
  const holder = value as Record<string, unknown> & {
    context?: Record<string, unknown>;
    messages: Array<Record<string, unknown>>;
  };
  const harnessOf = async (marker: Marker): Promise<Harness> => {
    if (typeof marker.$ref === 'string') return sidecars.harness(marker.$ref, at);
    if (!harness) throw new HarnessAugmentError(`${at}: a derived marker names no harness`);
    return harness;
  };
  const out: Record<string, unknown> = {};
  for (const [key, part] of Object.entries(holder)) {
    if (key === 'tools' && isDerived(part, 'offered_tools'))
      out[key] = toChatCompletionTools(await harnessOf(part));
    else if (key === 'messages' && isDerived(holder.messages[0]?.content, 'system_prompt')) {
      const [first, ...rest] = holder.messages as [Record<string, unknown>, ...unknown[]];
      const marker = first.content as Marker;
      const prompt = renders(await harnessOf(marker), marker.context ?? holder.context ?? {});
      if (prompt === undefined)
        throw new HarnessAugmentError(`${at}: the system prompt cannot be rendered from the harness`);
      out[key] = [
        Object.fromEntries(
          Object.entries(first).map(([name, content]) => [name, name === 'content' ? prompt : content]),
        ),
        ...rest,
      ];
    } else out[key] = part;
  }
  return out;
}

/**
 * Reads the rows of an augment output file, by reference or inline, as inline rows: each by-reference row
 * is resolved through the sidecars (default: `sidecarPathOf(file)`, or `variants.jsonl` in the same folder).
 * A bad line, or a row that names a hash no sidecar holds, is an error naming the file and line.
 *
 * @example
 * for await (const { row, line } of readAugmentedRows('out/augmented.jsonl')) console.log(line, row.harness.id);
 */
export async function* readAugmentedRows(
  file: string,
  options: { sidecars?: readonly string[] } = {},
): AsyncGenerator<{ row: AugmentRow; line: number }> {
  const sidecars = options.sidecars ?? (await defaultSidecars(file));
  const resolver = await openSidecars(sidecars, {
    lookedFor: [sidecarPathOf(file), join(dirname(file), 'variants.jsonl')],
  });
  try {
    for await (const record of readJsonl(file)) {
      if ('issue' in record)
        throw new HarnessAugmentError(`${file}:${record.line}: ${record.issue.message}`, {
          kind: 'usage',
          issues: [record.issue],
        });
      yield { row: await resolver.resolveRow(record.value, `${file}:${record.line}`), line: record.line };
    }
  } finally {
    await resolver.close();
  }
}

/**
 * The sidecars a rows file has beside it, of `<rows without .jsonl>.variants.jsonl` and `variants.jsonl` in
 * its folder (the pipeline's), those that exist.
 *
 * @example
 * await defaultSidecars('out/pipeline/examples.jsonl') // ['out/pipeline/variants.jsonl']
 */
export async function defaultSidecars(file: string): Promise<string[]> {
  const candidates = [sidecarPathOf(file), join(dirname(file), 'variants.jsonl')];
  const found: string[] = [];
  for (const candidate of candidates) {
    if (found.includes(candidate)) continue;
    const handle = await open(candidate, 'r').catch(() => undefined);
    if (!handle) continue;
    await handle.close();
    found.push(candidate);
  }
  return found;
}

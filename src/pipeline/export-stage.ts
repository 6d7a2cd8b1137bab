// The pipeline's export stage: the SFT set is read once (resolved through its sidecar) and every configured
// trainer format is written from that one pass, each into a staging folder moved into `exports/` when
// complete, with what a format could not hold in `export-rejects/`.
import { readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HarnessAugmentError } from '../harness/issues.js';
import { writeJsonLines } from '../harness/json-lines.js';
import { isAtomicTemporary, makeFolder } from '../harness/write-file-atomic.js';
import { runFiles } from './checkpoint.js';
import { exportsOf, exportTarget, type PipelineConfig } from './config.js';
import { readTrainingExamples } from './example-sidecar.js';
import { freezeWhole } from './frozen-data.js';
import { describeFile, type OutputFile } from './output-file.js';
import type { ExportSink, PipelineExporter } from './teacher.js';

/** One format's part of the manifest; `folder` (under `exports/`) is given when it is not the format's name. */
export interface ExportEntry {
  format: string;
  folder?: string;
  rows: number;
  rejected: number;
  /** The chat templates the rows are for, as the folder's README lists them (formats a template renders). */
  templates?: string[];
  files: OutputFile[];
}

/**
 * Writes every export of `config` from the SFT set in `config.out`; `onOpen` is told each folder as its sink
 * opens. The staging folder is left for the caller to remove.
 *
 * @example
 * const exports = await runExportStage(config, dependencies.exporters);
 */
export async function runExportStage(
  config: PipelineConfig,
  exporters: Record<string, PipelineExporter>,
  options: { onOpen?: (folder: string) => void } = {},
): Promise<ExportEntry[]> {
  const out = config.out;
  const examplesFile = join(out, runFiles.examples);
  const entries: ExportEntry[] = [];
  // Each format is written into a staging folder beside `exports/` and moved into place when complete, so
  // `exports/` (which trainers read as a folder) never holds a temporary file, even after a SIGKILL.
  const staging = join(out, runFiles.staging);
  await rm(staging, { recursive: true, force: true });
  await removePartials(join(out, 'exports'));
  // Every sink is open at once, so the examples are read (and resolved through the sidecar) once for all.
  const targets = [];
  for (const [format, configured] of exportsOf(config)) {
    const { folder, options: exportOptions } = exportTarget(format, configured);
    const exporter = exporters[format];
    if (!exporter) throw new HarnessAugmentError(`no exporter for format "${format}"`, { kind: 'usage' });
    targets.push({ format, folder, exporter, exportOptions });
  }
  const sinks: ExportSink[] = [];
  try {
    for (const target of targets) {
      options.onOpen?.(target.folder);
      sinks.push(await target.exporter.open(join(staging, target.folder), target.exportOptions));
    }
    for await (const example of readTrainingExamples(examplesFile)) {
      // Every sink gets the same example, frozen whole: what a sink derives from it once (the trainer
      // adapters check and prepare it) then holds for the others, so it is done once for all.
      const shared = freezeWhole(example);
      for (const sink of sinks) await sink.write(shared);
    }
  } catch (error) {
    for (const sink of sinks) await sink.abort?.();
    throw error;
  }
  for (const [index, { format, folder }] of targets.entries()) {
    const sink = sinks[index] as ExportSink;
    const staged = join(staging, folder);
    const final = join(out, 'exports', folder);
    const summary = await sink.close();
    await rm(final, { recursive: true, force: true });
    await makeFolder(dirname(final));
    await rename(staged, final);
    summary.files = summary.files.map((file) =>
      file.startsWith(`${staged}/`) || file === staged ? `${final}${file.slice(staged.length)}` : file,
    );
    // What a format could not hold, with the reason, beside (not inside) the export folder that trainers read.
    if (summary.rejected > 0) {
      const rejectsFile = join(out, 'export-rejects', `${folder}.jsonl`);
      await makeFolder(dirname(rejectsFile));
      await writeJsonLines(
        rejectsFile,
        (summary.rejects ?? []).map((reject) => ({ id: reject.id, reason: reject.reason })),
      );
      summary.files.push(rejectsFile);
    }
    entries.push({
      format,
      ...(folder === format ? {} : { folder }),
      rows: summary.rows,
      rejected: summary.rejected,
      ...(summary.templates ? { templates: summary.templates } : {}),
      files: await Promise.all(summary.files.map((file) => describeFile(out, file))),
    });
  }
  return entries;
}

/** Removes the atomic writer's temporaries that an older, killed run left under a folder. */
async function removePartials(folder: string): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isFile() && isAtomicTemporary(entry.name))
      await rm(join(entry.parentPath ?? (entry as { path?: string }).path ?? folder, entry.name), {
        force: true,
      });
  }
}

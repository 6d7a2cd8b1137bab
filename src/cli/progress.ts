// Progress on standard error through `cli-progress`: total, percentage, rate and ETA when the total is known,
// count and rate when not. Only on a terminal: silent in pipes, in CI, and with --quiet or --json; the
// package is imported only when a bar is shown.
import { createReadStream } from 'node:fs';
import { outputMode } from './output.js';

export interface Progress {
  /** Sets how many items are done, with a short detail shown after the bar. */
  update(done: number, detail?: string): void;
  /** Sets or changes the total (when it becomes known). */
  setTotal(total: number): void;
  done(): void;
}

const silent: Progress = { update: () => {}, setTotal: () => {}, done: () => {} };

/** Whether progress is shown at all: a terminal on standard error, not CI, not --quiet, not --json. */
export function showsProgress(stream: NodeJS.WriteStream = process.stderr): boolean {
  const mode = outputMode();
  return stream.isTTY === true && !process.env.CI && !mode.quiet && !mode.json;
}

/**
 * A progress bar for `label`, counting `unit`s out of `total` (unknown when undefined).
 *
 * @example
 * const progress = await createProgress('augment', { total: 396, unit: 'examples' });
 * progress.update(10, '80 rows'); progress.done();
 */
export async function createProgress(
  label: string,
  options: { total?: number; unit?: string; stream?: NodeJS.WriteStream } = {},
): Promise<Progress> {
  const stream = options.stream ?? process.stderr;
  if (!showsProgress(stream)) return silent;
  const { default: cliProgress } = await import('cli-progress');
  const unit = options.unit ?? 'items';
  const started = Date.now();
  let total = options.total;
  const known = `${label} {bar} {percentage}% {value}/{total} ${unit} | {rate}/s | ETA {eta_formatted} {detail}`;
  const unknown = `${label} {value} ${unit} | {rate}/s | {duration_formatted} {detail}`;
  const bar = new cliProgress.SingleBar(
    {
      format: total === undefined ? unknown : known,
      stream,
      hideCursor: true,
      clearOnComplete: true,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  const payload = (done: number, detail = '') => ({
    rate: (done / Math.max((Date.now() - started) / 1000, 0.001)).toFixed(1),
    detail,
  });
  bar.start(total ?? 0, 0, payload(0));
  return {
    update(done, detail) {
      bar.update(done, payload(done, detail));
    },
    setTotal(next) {
      if (total === undefined) (bar as unknown as { options: { format: string } }).options.format = known;
      total = next;
      bar.setTotal(next);
    },
    done() {
      bar.stop();
    },
  };
}

/**
 * Counts the non-blank lines of a file (the total of a JSONL input), streaming; undefined when unreadable.
 *
 * @example
 * await countLines('trajectories.jsonl') // 396
 */
export async function countLines(file: string): Promise<number | undefined> {
  try {
    let lines = 0;
    let blank = true;
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      for (const byte of chunk) {
        if (byte === 10) {
          if (!blank) lines++;
          blank = true;
        } else if (byte !== 13 && byte !== 32) blank = false;
      }
    }
    return blank ? lines : lines + 1;
  } catch {
    return undefined;
  }
}

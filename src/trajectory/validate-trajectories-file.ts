// Validates every trajectory of a JSONL file under a harness, with counts that reconcile.
import type { Issue } from '../harness/issues.js';
import type { Harness } from '../harness/schema.js';
import { readJsonl } from './read-jsonl.js';
import {
  type TrajectoryStats,
  type ValidateTrajectoryOptions,
  validateTrajectory,
} from './validate-trajectory.js';

/** What `validateTrajectoriesFile` found: lines read, valid and invalid, every issue, and totals. */
export interface TrajectoriesFileReport {
  /** Non-blank lines read. */
  read: number;
  valid: number;
  invalid: number;
  /** Every issue, with its file and line. */
  issues: Issue[];
  /** Totals over the valid trajectories. */
  stats: TrajectoryStats;
  /** Ids seen more than once, each with the lines it appears on. */
  duplicateIds: Array<{ id: string; lines: number[] }>;
}

/**
 * Validates a trajectories JSONL file under a harness. `read` always equals `valid + invalid`.
 *
 * @example
 * const report = await validateTrajectoriesFile('trajectories.jsonl', harness);
 */
export async function validateTrajectoriesFile(
  file: string,
  harness: Harness,
  options: ValidateTrajectoryOptions = {},
): Promise<TrajectoriesFileReport> {
  const report: TrajectoriesFileReport = {
    read: 0,
    valid: 0,
    invalid: 0,
    issues: [],
    stats: { messages: 0, turns: 0, toolCalls: 0, skillLoads: 0, hookRejections: 0 },
    duplicateIds: [],
  };
  const linesById = new Map<string, number[]>();
  for await (const record of readJsonl(file)) {
    report.read++;
    if ('issue' in record) {
      report.invalid++;
      report.issues.push(record.issue);
      continue;
    }
    const result = validateTrajectory(record.value, harness, options);
    const id = result.trajectory?.id;
    if (id !== undefined) linesById.set(id, [...(linesById.get(id) ?? []), record.line]);
    if (id !== undefined && (linesById.get(id)?.length ?? 0) > 1) {
      result.issues.push({
        code: 'duplicate_id',
        path: ['id'],
        message: `trajectory id "${id}" already appears on line ${linesById.get(id)?.[0]}`,
      });
    }
    if (result.issues.length === 0) {
      report.valid++;
      for (const key of Object.keys(report.stats) as Array<keyof TrajectoryStats>)
        report.stats[key] += result.stats[key];
    } else {
      report.invalid++;
      report.issues.push(...result.issues.map((issue) => ({ ...issue, file, line: record.line })));
    }
  }
  report.duplicateIds = [...linesById]
    .filter(([, lines]) => lines.length > 1)
    .map(([id, lines]) => ({ id, lines }))
    .sort((a, b) => (a.lines[0] ?? 0) - (b.lines[0] ?? 0));
  return report;
}

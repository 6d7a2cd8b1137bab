// Reads the versions of a harness: from a git repository (every commit that changed the path, oldest first,
// following renames; `git log` and `git show` through child_process, no network) or from a list of files. A
// version that does not parse or breaks a rule is kept with its issues, not thrown: the drift report names it.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { formatOf, parseDocument, readDocument } from '../harness/documents.js';
import { HarnessAugmentError, type Issue } from '../harness/issues.js';
import { safeParseHarness } from '../harness/parse-harness.js';
import type { Harness } from '../harness/schema.js';

/** One version of the harness: its label, where it came from, and the harness or its issues. */
export interface HarnessVersion {
  /** A short commit hash, or the file name. */
  label: string;
  /** `<commit>:<path>` or the file. */
  source: string;
  commit?: string;
  date?: string;
  subject?: string;
  harness?: Harness;
  issues?: Issue[];
}

function parseVersion(
  text: string,
  where: string,
  format: 'json' | 'yaml',
): Pick<HarnessVersion, 'harness' | 'issues'> {
  try {
    const document = parseDocument(text.replace(/^\uFEFF/, ''), { format, file: where });
    const result = safeParseHarness(document.value);
    return result.success
      ? { harness: result.data }
      : { issues: result.issues.map((issue) => ({ ...issue, file: where })) };
  } catch (error) {
    if (!HarnessAugmentError.isInstance(error)) throw error;
    return { issues: [{ code: 'invalid_document', path: [], message: error.message, file: where }] };
  }
}

function git(repo: string, args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Every version of `path` in the git repository `repo`, oldest first (commits that deleted it left out).
 * A missing repository, a folder that is not one, or a path never committed is a usage error.
 *
 * @example
 * const versions = readGitHistory('.', 'fixtures/helpdesk/harness.yaml');
 */
export function readGitHistory(repo: string, path: string): HarnessVersion[] {
  if (!existsSync(repo) || !statSync(repo).isDirectory())
    throw new HarnessAugmentError(`--repo ${repo}: no such folder`, { kind: 'usage' });
  try {
    git(repo, ['rev-parse', '--git-dir']);
  } catch {
    throw new HarnessAugmentError(`--repo ${repo}: not a git repository`, { kind: 'usage' });
  }
  let log: string;
  try {
    log = git(repo, ['log', '--follow', '--name-status', '--format=%x00%H%x09%cI%x09%s', '--', path]);
  } catch (error) {
    const reason = String((error as { stderr?: string }).stderr ?? (error as Error).message).split('\n')[0];
    throw new HarnessAugmentError(`--repo ${repo}: git log failed: ${reason}`, { kind: 'usage' });
  }
  const entries = log
    .split('\u0000')
    .filter((entry) => entry.trim().length > 0)
    .map((entry) => {
      const [header = '', ...lines] = entry.split('\n').filter((line) => line.length > 0);
      const [commit = '', date = '', subject = ''] = header.split('\t');
      const status = lines.at(-1)?.split('\t') ?? [];
      return { commit, date, subject, status: status[0] ?? '', file: status.at(-1) ?? path };
    })
    .reverse();
  if (entries.length === 0)
    throw new HarnessAugmentError(`--path ${path}: never committed in ${repo}`, { kind: 'usage' });
  const versions: HarnessVersion[] = [];
  for (const entry of entries) {
    if (entry.status.startsWith('D')) continue;
    const label = entry.commit.slice(0, 7);
    const source = `${label}:${entry.file}`;
    let text: string;
    try {
      text = git(repo, ['show', `${entry.commit}:${entry.file}`]);
    } catch {
      versions.push({
        label,
        source,
        commit: entry.commit,
        date: entry.date,
        subject: entry.subject,
        issues: [{ code: 'unreadable', path: [], message: `git show ${source} failed`, file: source }],
      });
      continue;
    }
    versions.push({
      label,
      source,
      commit: entry.commit,
      date: entry.date,
      subject: entry.subject,
      ...parseVersion(text, source, formatOf(entry.file)),
    });
  }
  return versions;
}

/**
 * The versions given as files, in the given order; a missing file is a usage error.
 *
 * @example
 * const versions = await readHarnessFiles(['v1.yaml', 'v2.yaml']);
 */
export async function readHarnessFiles(files: readonly string[]): Promise<HarnessVersion[]> {
  const versions: HarnessVersion[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = (await readDocument(file)).text;
    } catch (error) {
      if (HarnessAugmentError.isInstance(error) && error.kind === 'usage' && !existsSync(file)) throw error;
      if (!HarnessAugmentError.isInstance(error)) throw error;
      versions.push({
        label: file,
        source: file,
        issues: [{ code: 'invalid_document', path: [], message: error.message, file }],
      });
      continue;
    }
    versions.push({ label: file, source: file, ...parseVersion(text, file, formatOf(file)) });
  }
  return versions;
}

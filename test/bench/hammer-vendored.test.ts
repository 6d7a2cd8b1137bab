// Hammer's function masking, the baseline of `npm run bench`'s tools-only figure, is Hammer's own file:
// scripts/bench/vendor/VENDORED.json records the upstream commit and each file's git blob id (written by
// scripts/vendor-python.py from a clone), and each copy must hash to it. The runner that drives it
// (scripts/bench/hammer-masking.py) is checked on fixture rows with the machine's python3.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const vendor = 'scripts/bench/vendor';

interface VendoredProject {
  project: string;
  repository: string;
  commit: string;
  license: string;
  files: Array<{ path: string; blob: string }>;
}

const projects = (
  JSON.parse(readFileSync(join(vendor, 'VENDORED.json'), 'utf8')) as { projects: VendoredProject[] }
).projects;

/** git's blob id of a file's bytes: sha1("blob <size>\0" + content), as `git hash-object` computes it. */
const gitBlobId = (content: Buffer) =>
  createHash('sha1')
    .update(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]))
    .digest('hex');

const filesUnder = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('__pycache__'))
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split('\\').join('/'));

describe('the vendored Hammer source', () => {
  it('computes the blob id git computes', () => {
    // git hash-object /dev/null, and of "hello\n"
    expect(gitBlobId(Buffer.alloc(0))).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(gitBlobId(Buffer.from('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('names Hammer, its repository, a full commit id and its license', () => {
    const hammer = projects.find((project) => project.project === 'hammer');
    expect(hammer?.repository).toBe('https://github.com/MadeAgents/Hammer');
    expect(hammer?.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(hammer?.files.map((file) => file.path)).toEqual(
      expect.arrayContaining([hammer?.license, 'train/data_processing.py']),
    );
  });

  it.each(projects.map((project) => [project.project, project] as const))(
    '%s: every file is the upstream blob and the folder holds nothing else',
    (name, project) => {
      const folder = join(vendor, name);
      const changed = project.files
        .filter((file) => gitBlobId(readFileSync(join(folder, file.path))) !== file.blob)
        .map((file) => file.path);
      expect(changed).toEqual([]);
      expect(filesUnder(folder).sort()).toEqual(project.files.map((file) => file.path).sort());
    },
  );
});

describe("the runner of Hammer's masking", () => {
  const folder = mkdtempSync(join(tmpdir(), 'hsa-hammer-runner-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const fixture = readFileSync('fixtures/livestream/trajectories.jsonl', 'utf8').split('\n').filter(Boolean);
  const inputs = fixture.slice(0, 12);
  const input = join(folder, 'in.jsonl');
  writeFileSync(input, `${inputs.join('\n')}\n`);
  const originalNames = new Set(
    (JSON.parse(inputs[0] as string) as { tools: Array<{ function: { name: string } }> }).tools.map(
      (tool) => tool.function.name,
    ),
  );

  const runMasking = (out: string) => {
    const stdout = execFileSync(
      'python3',
      ['scripts/bench/hammer-masking.py', '--trajectories', input, '--variants', '3', '--out', out],
      { encoding: 'utf8' },
    );
    return {
      figure: JSON.parse(stdout.trim()) as { inputs: number; rows: number; bytes: number; commit: string },
      rows: readFileSync(out, 'utf8').split('\n').filter(Boolean),
    };
  };

  it("writes one SFT row per copy, every tool renamed and the gold answers following the tools' new names", () => {
    const { figure, rows } = runMasking(join(folder, 'a.jsonl'));
    expect(figure).toMatchObject({
      inputs: 12,
      rows: 36,
      commit: projects.find((project) => project.project === 'hammer')?.commit,
    });
    expect(figure.bytes).toBe(Buffer.byteLength(`${rows.join('\n')}\n`));
    for (const line of rows) {
      const row = JSON.parse(line) as { instruction: string; input: string; output: string };
      const tools = row.instruction
        .split('[BEGIN OF AVAILABLE TOOLS]\n')[1]
        ?.split('\n[END OF AVAILABLE TOOLS]')[0];
      const toolNames = (JSON.parse(tools as string) as Array<{ name: string }>).map((tool) => tool.name);
      const answers = JSON.parse(row.output.replace(/^```\n|\n```$/g, '')) as Array<{ name: string }>;
      expect(answers.length).toBeGreaterThan(0);
      for (const answer of answers) expect(toolNames).toContain(answer.name);
      for (const name of toolNames) expect(originalNames.has(name)).toBe(false);
    }
  });

  it('writes the same bytes for the same input', () => {
    const first = runMasking(join(folder, 'b.jsonl'));
    const second = runMasking(join(folder, 'c.jsonl'));
    expect(second.rows).toEqual(first.rows);
  });
});

// What a Markdown page shows a reader to run, read off its text in page order: every line of a shell block
// (`sh`, `bash`, `shell`; continuation lines joined), every inline code span of the prose that starts with
// `npx ` or `npm ` (a whole command written in a sentence), and every `ts` / `js` block as a program.
// Other labelled blocks (`text`, `yaml`, `json` …) are output and configuration, not commands; an
// unlabelled block is an error, so that no command can hide in one.

/**
 * One thing the page shows to run, with the page line it starts on. A command's `exitStatus` is 0 unless the
 * prose after its shell block, before the next one, says "the exit code is N".
 */
export type PageStep =
  | { kind: 'command'; text: string; line: number; exitStatus: number }
  | { kind: 'program'; language: 'ts' | 'js'; code: string; line: number };

const shellLanguages = new Set(['sh', 'bash', 'shell']);
const programLanguages: Record<string, 'ts' | 'js'> = {
  ts: 'ts',
  typescript: 'ts',
  js: 'js',
  javascript: 'js',
};
const fence = /^```([^\n`]*)\n([\s\S]*?)^```[ \t]*$/gm;
const statedExit = /\bexit code is (\d+)\b/;

const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** The commands of a shell block: continuation lines joined, blank and comment-only lines left out. */
function shellCommands(body: string, firstLine: number): PageStep[] {
  const steps: PageStep[] = [];
  const lines = body.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = firstLine + index;
    let text = lines[index]!;
    while (text.endsWith('\\') && index + 1 < lines.length)
      text = `${text.slice(0, -1).trimEnd()} ${lines[++index]!.trim()}`;
    if (text.trim() === '' || text.trim().startsWith('#')) continue;
    steps.push({ kind: 'command', text: text.trim(), line, exitStatus: 0 });
  }
  return steps;
}

/** The inline `npx …` / `npm …` spans of a stretch of prose (a span may wrap across lines). */
function inlineCommands(prose: string, firstLine: number): PageStep[] {
  return [...prose.matchAll(/`([^`]+)`/g)]
    .map((match) => ({ text: match[1]!.replace(/\s+/g, ' ').trim(), offset: match.index }))
    .filter(({ text }) => /^np[mx] /.test(text))
    .map(({ text, offset }) => ({
      kind: 'command',
      text,
      line: firstLine + lineAt(prose, offset) - 1,
      exitStatus: 0,
    }));
}

/**
 * The steps of a Markdown page, in the order a reader meets them.
 *
 * @example
 * pageSteps('Run `npx hsa --help`:\n\n```sh\nnpx hsa validate h.yaml\n```\n')
 * // [{ kind: 'command', text: 'npx hsa --help', line: 1, exitStatus: 0 },
 * //  { kind: 'command', text: 'npx hsa validate h.yaml', line: 4, exitStatus: 0 }]
 */
export function pageSteps(page: string): PageStep[] {
  const steps: PageStep[] = [];
  let lastShellBlock: PageStep[] = [];
  const prose = (from: number, to?: number) => {
    const text = page.slice(from, to);
    const exit = statedExit.exec(text);
    if (exit)
      for (const step of lastShellBlock) if (step.kind === 'command') step.exitStatus = Number(exit[1]);
    steps.push(...inlineCommands(text, lineAt(page, from)));
  };
  let proseStart = 0;
  for (const block of page.matchAll(fence)) {
    prose(proseStart, block.index);
    proseStart = block.index + block[0].length;
    const language = block[1]!.trim().split(/\s+/)[0]!;
    const bodyLine = lineAt(page, block.index) + 1;
    if (language === '') throw new Error(`line ${bodyLine - 1}: a code block without a language`);
    if (shellLanguages.has(language)) {
      lastShellBlock = shellCommands(block[2]!, bodyLine);
      steps.push(...lastShellBlock);
    } else if (programLanguages[language])
      steps.push({ kind: 'program', language: programLanguages[language]!, code: block[2]!, line: bodyLine });
  }
  prose(proseStart);
  return steps;
}

const commandParts = (command: string) => command.split(/&&|\|\||;/).map((part) => part.trim().split(/\s+/));

/**
 * Why a command of a page is not run from the installed package, or `undefined` when it is. The rules:
 * a command with a placeholder (`<…>`, `…`) is a pattern, not a command; npm with no package named
 * (`npm install`, `npm start`, `npm test`, `npm run …`, `npm pack`) and git act on the repository in the
 * current folder, which the page means to be a clone of this one.
 *
 * @example
 * notRunFromPackage('npm install && npm start') // 'in a clone: …'
 * notRunFromPackage('npx hsa --help')           // undefined
 */
export function notRunFromPackage(command: string): string | undefined {
  if (/<[^<>\s][^<>]*>|…/.test(command)) return 'a pattern with a placeholder, not a command';
  if (commandParts(command).some(actsOnTheClone))
    return 'in a clone: npm without a package, or git, acts on this repository (.ci/run runs these in a fresh clone)';
  return undefined;
}

function actsOnTheClone(words: string[]): boolean {
  if (words[0] === 'git') return true;
  if (words[0] !== 'npm') return false;
  const [subcommand, ...rest] = words.slice(1);
  const packages = rest.filter((word) => !word.startsWith('-'));
  if (subcommand === 'start' || subcommand === 'test' || subcommand === 'run') return true;
  return (subcommand === 'install' || subcommand === 'i' || subcommand === 'pack') && packages.length === 0;
}

/**
 * The npm commands of a command line, each as its words (`npm install && npm start` → two).
 *
 * @example
 * npmParts('npm install && npm run bench') // [['npm', 'install'], ['npm', 'run', 'bench']]
 */
export function npmParts(command: string): string[][] {
  return commandParts(command).filter((words) => words[0] === 'npm');
}

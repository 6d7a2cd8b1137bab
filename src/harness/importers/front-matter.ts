// Markdown files that open with YAML front matter between `---` lines (Agent Skills' SKILL.md, flat rule
// files): the front matter as a checked mapping, the body, and the line of each front-matter path, so that
// every issue found in either kind of file says where it is.
import YAML from 'yaml';
import { createLineLocator, findForbiddenKeys } from '../documents.js';
import type { Issue, JsonPath } from '../issues.js';
import { lineAndColumn } from '../json-syntax.js';
import { yamlDocumentValue } from '../yaml-text.js';
import { isPlainObject, jsonTypeOf } from './tool-fields.js';

/** A Markdown file split into its front matter and body, with the line where each part starts. */
interface SplitFile {
  frontMatter: string;
  body: string;
  /** The line of the closing `---`. */
  closingLine: number;
  bodyLine: number;
}

/** Splits a file into front matter and body, or returns the issue that prevents it. */
function splitFile(text: string, what: string): SplitFile | Issue {
  const opening = /^---[ \t]*(\r?\n)/.exec(text);
  if (!opening) {
    return {
      code: 'missing_front_matter',
      path: [],
      line: 1,
      message: `${what} must start with a "---" line that opens the YAML front matter`,
    };
  }
  const lineBreak = opening[1] ?? '\n';
  let lineStart = opening[0].length;
  let line = 2;
  for (;;) {
    const lineEnd = text.indexOf('\n', lineStart);
    const end = lineEnd === -1 ? text.length : lineEnd;
    if (/^---[ \t]*\r?$/.test(text.slice(lineStart, end))) {
      let body = lineEnd === -1 ? '' : text.slice(lineEnd + 1);
      let bodyLine = line + 1;
      // One blank line may separate the front matter from the body, and the file ends with a line break;
      // neither belongs to the body. Everything else does, so a rendered body comes back exactly.
      if (body.startsWith(lineBreak)) {
        body = body.slice(lineBreak.length);
        bodyLine += 1;
      }
      if (body.endsWith(lineBreak)) body = body.slice(0, -lineBreak.length);
      return { frontMatter: text.slice(opening[0].length, lineStart), body, closingLine: line, bodyLine };
    }
    if (lineEnd === -1) break;
    lineStart = lineEnd + 1;
    line += 1;
  }
  return {
    code: 'unclosed_front_matter',
    path: [],
    line: 1,
    message: 'the front matter opened on line 1 is never closed by a "---" line',
  };
}

/** A file's front matter read as a YAML mapping, and its body. */
export interface FrontMatterDocument {
  value: Record<string, unknown>;
  body: string;
  /** The line of a front-matter path (counted in the whole file); `['body']` is the body's first line. */
  lineOf: (path: JsonPath) => number;
  /** The issues, each given the line of its path where it has none. */
  withLines: (issues: Issue[]) => Issue[];
}

/**
 * Reads the front matter of `text` (a BOM is dropped): the mapping and the body, or the issues that keep it
 * from being read (no or unclosed front matter, invalid YAML, a forbidden key, not a mapping), each with its
 * line. `what` names the file in a message ("a SKILL.md").
 *
 * @example
 * const read = readFrontMatter('---\nname: github\n---\n\nUse the API.\n', 'a rule file');
 * if (!('issues' in read)) read.value.name // 'github'
 */
export function readFrontMatter(
  text: string,
  what: string,
): FrontMatterDocument | { issues: Issue[]; lineOf?: (path: JsonPath) => number } {
  const split = splitFile(text.replace(/^\uFEFF/, ''), what);
  if ('code' in split) return { issues: [split] };

  const document = YAML.parseDocument(split.frontMatter, { uniqueKeys: true, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax) {
    // An error found at the end of the text (an unclosed quote or bracket) is shown on the last front-matter line.
    const offset = Math.min(syntax.pos[0], Math.max(0, split.frontMatter.length - 1));
    const { line, column } = lineAndColumn(split.frontMatter, offset);
    return {
      issues: [
        {
          code: 'invalid_front_matter',
          path: [],
          line: line + 1,
          message: `invalid YAML in the front matter: ${syntax.message.split('\n')[0]} (column ${column})`,
        },
      ],
    };
  }
  const locate = createLineLocator({ text: split.frontMatter, format: 'yaml' });
  // Front-matter paths are counted from the line after the opening `---`; the body has its own path.
  const lineOf = (path: JsonPath) => {
    if (path[0] === 'body') return split.body.length > 0 ? split.bodyLine : split.closingLine;
    const line = locate(path);
    return line === undefined ? 1 : line + 1;
  };
  const withLines = (issues: Issue[]) =>
    issues.map((issue) => ({ ...issue, line: issue.line ?? lineOf(issue.path) }));

  const built = yamlDocumentValue(document);
  if (!built.ok)
    return {
      issues: [
        {
          code: 'invalid_front_matter',
          path: [],
          line: 1,
          message: `invalid YAML in the front matter: ${built.message}`,
        },
      ],
    };
  const value: unknown = built.value;
  const forbidden = findForbiddenKeys(value);
  if (forbidden.length > 0) return { issues: withLines(forbidden), lineOf };
  if (!isPlainObject(value)) {
    return {
      issues: [
        {
          code: 'invalid_front_matter',
          path: [],
          line: 1,
          message: `the front matter must be a YAML mapping, not ${jsonTypeOf(value)}`,
        },
      ],
      lineOf,
    };
  }
  return { value, body: split.body, lineOf, withLines };
}

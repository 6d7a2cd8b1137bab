// The plain type the content and meaning checks share: a harness text with its mentions as placeholders.
import type { JsonPath } from '../harness/issues.js';

/** A text of a harness, with the mentions of its identifiers replaced by placeholders of their kind. */
export interface NormalisedText {
  path: JsonPath;
  text: string;
  /** The text as written, and the spans of its mentions: paths and URLs are compared as written. */
  raw: string;
  mentions: ReadonlyArray<{ start: number; end: number }>;
}

// User-supplied regular expressions, run in linear time with re2js: a pattern that needs backtracking
// (backreferences, lookaround) is refused with the reason, so that no input can make a check hang.
import { RE2JS } from 're2js';

/** A compiled linear-time pattern. */
export interface LinearPattern {
  /** The first match in `text`, or undefined. */
  firstMatch(text: string): string | undefined;
  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean;
}

export type CompiledPattern = { ok: true; pattern: LinearPattern } | { ok: false; reason: string };

/** The flags a hook pattern may carry, with their re2js meaning; `u` is always on in re2js (code points). */
const flagBits: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0,
};

// Pure function of content across runs: a compiled pattern, by its source text and flags.
const cache = new Map<string, CompiledPattern>();
const cacheLimit = 512;
const answerLimit = 4096;

/**
 * Compiles a user pattern for the linear-time engine. Flags `i`, `m`, `s` and `u` keep their JavaScript
 * meaning; any other flag, and any syntax re2js cannot run in linear time, is refused with the reason.
 *
 * @example
 * const compiled = compileLinearPattern('(a+)+$', 'i');
 * if (compiled.ok) compiled.pattern.test('a'.repeat(40) + '!'); // false, at once
 * compileLinearPattern('(.)\\1', '') // { ok: false, reason: 'invalid escape sequence: `\\1` (…)' }
 */
export function compileLinearPattern(source: string, flags = ''): CompiledPattern {
  const key = `${flags}\u0000${source}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const compiled = compile(source, flags);
  if (cache.size >= cacheLimit) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}

function compile(source: string, flags: string): CompiledPattern {
  let bits = 0;
  for (const flag of flags) {
    const bit = flagBits[flag];
    if (bit === undefined) return { ok: false, reason: `flag "${flag}" is not supported (use i, m, s, u)` };
    bits |= bit;
  }
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(source, bits);
  } catch (error) {
    const message = (error as Error).message.replace(/^error parsing regexp: /, '');
    return {
      ok: false,
      reason: `${message} (patterns run in linear time with re2js: backreferences and lookaround are not supported)`,
    };
  }
  // re2js runs in linear time but far slower than V8's backtracking engine, and augmentation evaluates the
  // same few texts (user messages, replies) under many variants: remember recent answers. The answer is a
  // pure function of the text, so the cache changes nothing but time.
  const seen = new Map<string, boolean>();
  const test = (text: string): boolean => {
    const known = seen.get(text);
    if (known !== undefined) return known;
    // `test` does not track groups and is several times faster than a matcher's `find`.
    const found = regex.test(text);
    if (seen.size >= answerLimit) seen.clear();
    seen.set(text, found);
    return found;
  };
  return {
    ok: true,
    pattern: {
      firstMatch(text) {
        if (!test(text)) return undefined;
        const matcher = regex.matcher(text);
        return matcher.find() ? (matcher.group() ?? '') : undefined;
      },
      test,
    },
  };
}

// The replay teacher: no model call. Under the base harness it returns the gold trajectory; under a variant,
// the gold carried over by the variant's exact relabel (already certified by `augmentExample`).
import type { Teacher } from '../../pipeline/teacher.js';

/**
 * A teacher that calls no model: it returns the gold trajectory under the base harness and, under a
 * variant, the gold as the variant's exact relabel rewrote it (an exact teacher, no judge needed).
 *
 * @example
 * const teacher = replayTeacher();
 */
export function replayTeacher(): Teacher {
  return {
    name: 'replay',
    exact: true,
    async generate(request) {
      return { trajectory: request.variant?.rewritten ?? request.task.trajectory };
    },
  };
}

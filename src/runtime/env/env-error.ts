// The one error of the environment protocol: an HTTP-like status, a stable snake_case code and a message a
// training loop can log. The service throws it for every request it refuses; the HTTP adapter turns it into
// the response status and a `{ error: { code, message, issues? } }` body without deciding anything itself.
import { HarnessAugmentError, type Issue } from '../../harness/issues.js';

/** Why a request was refused. */
export type EnvErrorCode =
  | 'invalid_request'
  | 'invalid_harness'
  | 'invalid_step'
  | 'unauthorized'
  | 'unknown_episode'
  | 'episode_expired'
  | 'unknown_route'
  | 'method_not_allowed'
  | 'episode_done'
  | 'episode_busy'
  | 'body_too_large'
  | 'unsupported_media_type'
  | 'too_many_episodes'
  | 'variant_mismatch'
  | 'internal';

const marker = Symbol.for('harness-augment.env-error');

/**
 * A refused environment request. It is a HarnessAugmentError of kind `usage`, so anything that already
 * handles the library's errors handles it too; `status` is the HTTP status the adapter answers with.
 *
 * @example
 * throw new EnvError(404, 'unknown_episode', 'no episode "ep-9" on this server');
 */
export class EnvError extends HarnessAugmentError {
  readonly [marker] = true;
  readonly status: number;
  readonly code: EnvErrorCode;

  constructor(status: number, code: EnvErrorCode, message: string, options: { issues?: Issue[] } = {}) {
    super(message, { kind: 'usage', ...(options.issues ? { issues: options.issues } : {}) });
    this.name = 'EnvError';
    this.status = status;
    this.code = code;
  }

  /** Whether `value` is an EnvError, across copies of the package. */
  static isEnvError(value: unknown): value is EnvError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }

  /** The JSON body the adapter sends for this error. */
  toBody(): { error: { code: EnvErrorCode; message: string; issues?: Issue[] } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.issues.length > 0 ? { issues: this.issues } : {}),
      },
    };
  }
}

// A unit (a simulated episode, a bench row) whose model endpoint failed for good — past its deadline, out
// of retries, an error status — is a reject with the reason: the run keeps its finished units and goes on,
// and exits 1 (as `augment` does with rejects). Any other error still ends the run.
import { OpenAICompatibleError } from '../adapters/openai/errors.js';
import { printableLine } from '../harness/issues.js';

/** A rejects-file row for a unit whose endpoint failed. */
export interface EndpointReject {
  id: string;
  reason: 'endpoint_failed';
  /** The client's failure kind: `timeout`, `http_error`, `connection_error`, … */
  code: string;
  message: string;
  attempts: number;
  statusCode?: number;
}

/** Failures printed to standard error before the rest are only counted (they are all in the rejects file). */
const printedFailures = 3;

/**
 * Collects the endpoint failures of a run: `reject` turns an error into a reject row (or undefined when it
 * is not an endpoint failure, which then ends the run), printing the first few on standard error.
 *
 * @example
 * const failures = endpointFailures('episode'); const row = failures.reject(id, error);
 */
export function endpointFailures(unit: string) {
  let count = 0;
  return {
    get count() {
      return count;
    },
    reject(id: string, error: unknown): EndpointReject | undefined {
      if (!OpenAICompatibleError.isInstance(error)) return undefined;
      count++;
      if (count <= printedFailures)
        process.stderr.write(
          `hsa: ${printableLine(`${unit} ${id} failed: ${error.message}`)}${count === printedFailures ? ' (further failures only in the rejects file)' : ''}\n`,
        );
      return {
        id,
        reason: 'endpoint_failed',
        code: error.code,
        message: error.message,
        attempts: error.attempts,
        ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
      };
    },
  };
}

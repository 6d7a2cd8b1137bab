// The stop signal of a long-running command (`hsa env serve`, `hsa worker`).

/**
 * Resolves on the first SIGINT or SIGTERM.
 *
 * @example
 * const signal = await untilSignal(); // then close the server and exit
 */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

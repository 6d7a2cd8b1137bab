// A one-line progress display on standard error, only when it is a terminal; silent in pipes and CI.
export interface Progress {
  update(text: string): void;
  done(): void;
}

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || process.env.CI) return { update: () => {}, done: () => {} };
  let last = 0;
  return {
    update(text) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      stream.write(`\r\u001b[2K${label} ${text}`);
    },
    done() {
      stream.write('\r\u001b[2K');
    },
  };
}

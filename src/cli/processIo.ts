import type { Io } from '../app/io';

/**
 * Reads piped stdin. A pipe that stays open without sending anything (some
 * agent runners leave one) must not hang the command, so silence for a moment
 * counts as no input.
 */
export function readStdin(stream: NodeJS.ReadStream = process.stdin, quietMs = 500): Promise<string> {
  if (stream.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined = setTimeout(done, quietMs);
    function done(): void {
      if (timer) clearTimeout(timer);
      timer = undefined;
      stream.off('data', onData);
      stream.off('end', done);
      stream.off('error', done);
      stream.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    }
    function onData(chunk: Buffer): void {
      chunks.push(chunk);
      if (timer) clearTimeout(timer);
      timer = undefined;
    }
    stream.on('data', onData);
    stream.once('end', done);
    stream.once('error', done);
  });
}

export function processIo(): Io {
  let cached: Promise<string> | undefined;
  return {
    cwd: process.cwd(),
    env: process.env,
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    stdin: () => (cached ??= readStdin()),
  };
}

// `sluice get`: one value through openJson (transient: forward only, one chunk held), which reads the input only
// as far as the value's end, or the end of its nearest container when there is none.
import { JsonLimitError, JsonSyntaxError, type ParserLimits } from '../errors.js';
import { openJson } from '../open_json/open_json.js';
import type { CommandLine } from './args.js';
import { ExcerptedError, type InputBytes } from './error_report.js';
import { EXIT_NOT_FOUND, EXIT_OK } from './exit_codes.js';
import type { Input } from './input.js';
import type { Output } from './output.js';
import type { Progress } from './progress.js';

const CHUNK_BYTES = 64 * 1024;

export interface GetContext {
  readonly input: Input;
  readonly output: Output;
  readonly progress: Progress | undefined;
  readonly limits: ParserLimits;
  /** For the message when there is no value. */
  readonly report: (line: string) => void;
}

export async function get(cli: CommandLine, context: GetContext): Promise<number> {
  const { input, progress } = context;
  // The chunks read so far: the last two are kept for an error's excerpt.
  let read = 0;
  let previous = new Uint8Array(0);
  let current = new Uint8Array(0);
  // Two buffers, read into in turn: a transient document copies what it must keep once it asks for the next chunk
  // (docs/open_json.md), and the one before stays whole for the excerpt. A fresh buffer per chunk was garbage that
  // V8 collects only under external memory pressure: 93 MiB of peak RSS where select stays at 51.
  const buffers = [new Uint8Array(CHUNK_BYTES), new Uint8Array(CHUNK_BYTES)];
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let turn = 0; ; turn ^= 1) {
      const buffer = buffers[turn]!;
      const result = input.read(buffer, 0, CHUNK_BYTES);
      const n = typeof result === 'number' ? result : await result;
      if (n === 0) return;
      previous = current;
      current = buffer.subarray(0, n);
      read += n;
      progress?.update(read, 0);
      yield current;
    }
  }
  const around = (): InputBytes => {
    const bytes = new Uint8Array(previous.length + current.length);
    bytes.set(previous);
    bytes.set(current, previous.length);
    return { start: read - bytes.length, bytes };
  };
  const path = cli.paths[0]!;
  const doc = openJson(chunks(), { transient: true, ...context.limits });
  let value: unknown;
  try {
    value = await doc.get(path);
  } catch (error) {
    // The path was checked with the command line (args.ts): a TypeError here would be a bug, reported as one.
    if (error instanceof JsonSyntaxError || error instanceof JsonLimitError) throw new ExcerptedError(error, around());
    throw error;
  } finally {
    await doc.close();
  }
  if (value === undefined) {
    context.report(`sluice: no value at ${path} in ${input.name}`);
    return EXIT_NOT_FOUND;
  }
  await context.output.writeText_(`${JSON.stringify(value)}\n`);
  return EXIT_OK;
}

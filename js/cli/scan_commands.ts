// select, count and validate: one native parser over the whole input, read in 256 KiB pieces straight into its
// window. Memory stays flat: the window, the batch of one read, the bytes of an element still open; the output is
// written before the next read (a blocked pipe holds the reading back).
import type { ParserLimits } from '../errors.js';
import type { NativeRuntime } from '../native/contract.js';
import type { NormalizedPlan } from '../parse/normalized_paths.js';
import type { InvalidLine } from '../parse/option_types.js';
import type { CommandLine } from './args.js';
import { ElementWriter } from './element_writer.js';
import { ExcerptedError, type InputBytes } from './error_report.js';
import type { Input } from './input.js';
import { NativeStream } from './native_stream.js';
import type { Output } from './output.js';
import type { Progress } from './progress.js';

/** Bytes per read. 256 KiB: the window and its batch stay in L2 cache (1 MiB reads scanned 25 % slower here). */
export const READ_BYTES = 256 * 1024;
/**
 * The first read: 64 KiB. The first scan runs the baseline (Liftoff) code, about 50 MB/s, while the optimised code
 * compiles: a quarter of a read gets the first lines out about 3 ms of CPU sooner.
 */
export const FIRST_READ_BYTES = 64 * 1024;

export interface ScanContext {
  readonly runtime: NativeRuntime;
  readonly input: Input;
  readonly output: Output;
  readonly progress: Progress | undefined;
  readonly limits: ParserLimits;
  /** --skip-invalid: a line skipped, with its first bytes (for the excerpt). */
  readonly skipped?: (error: InvalidLine, around: InputBytes) => void;
}

/**
 * Feeds the input through `stream` to its end, calling `results` after each native call (the elements it
 * completed are readable until the next one); `results` returns false to stop reading. Elements completed before
 * an error are handed to `results` before the error is thrown (with the bytes around it, for the excerpt).
 */
export async function pump(
  context: ScanContext,
  stream: NativeStream,
  results: () => boolean | Promise<boolean>,
): Promise<void> {
  const { input, progress } = context;
  let elements = 0;
  const check = async (status: number): Promise<boolean> => {
    elements += stream.elementCount_;
    // Read before the output is written: the records stay valid until the next call only.
    const skipped = context.skipped === undefined ? [] : stream.skipped();
    const go = await results();
    for (const { error, bytes } of skipped) {
      context.skipped!(error, { start: error.offset - (error.column - 1), bytes });
    }
    if (status !== 0) throw new ExcerptedError(stream.error(status), stream.bytesAround_());
    return go;
  };
  for (;;) {
    stream.keepTail_();
    const ptr = stream.inputPtr_;
    const want = stream.bytesFed_ === 0 ? FIRST_READ_BYTES : READ_BYTES;
    const read = input.read(stream.runtime.u8_, ptr, Math.min(stream.inputCapacity_, want));
    const n = typeof read === 'number' ? read : await read;
    if (n === 0) break;
    if (!(await check(stream.feed(n)))) return;
    progress?.update(stream.bytesFed_, elements);
  }
  await check(stream.finish());
  progress?.update(stream.bytesFed_, elements);
}

export function openStream(
  context: ScanContext,
  cli: CommandLine,
  mode: 'lines' | 'markers',
  nativePaths: readonly string[],
  normalized: NormalizedPlan | null = null,
  containers: readonly string[] = [],
) {
  const ends = [...(normalized?.ends_ ?? []), ...containers];
  return new NativeStream(context.runtime, {
    nativePaths_: nativePaths,
    ndjson: cli.ndjson,
    skipInvalid_: cli.skipInvalid_,
    mode,
    ...(ends.length === 0 && normalized === null ? {} : { markers_: ends, starts_: normalized?.starts_ ?? [] }),
    shareRepeats_: cli.queries_ !== null,
    limits: context.limits,
    windowBytes_: READ_BYTES,
  });
}

/** `sluice select`: the elements, compacted, as lines, one array, or with their paths. */
export async function select(cli: CommandLine, context: ScanContext): Promise<void> {
  const writer = new ElementWriter(
    context.output,
    cli.array ? 'array' : cli.withPath ? 'with-path' : 'lines',
    cli.selectorPaths_,
  );
  const limit = cli.limit ?? Infinity;
  if (limit > 0) {
    const stream = openStream(context, cli, 'lines', cli.nativePaths_);
    try {
      await pump(context, stream, async () => {
        const take = Math.min(stream.elementCount_, limit - writer.count);
        await writer.write(stream, take);
        return writer.count < limit;
      });
    } finally {
      stream.delete();
    }
  }
  await writer.end();
}

/** `sluice count`: how many elements; their ends are all the parser reports (no bytes kept). */
export async function count(cli: CommandLine, context: ScanContext): Promise<void> {
  const stream = openStream(context, cli, 'markers', cli.nativePaths_);
  let total = 0;
  try {
    await pump(context, stream, () => {
      total += stream.elementCount_;
      return true;
    });
  } finally {
    stream.delete();
  }
  await context.output.writeText_(`${total}\n`);
}

/** `sluice validate`: the whole input through the grammar; nothing selected, nothing kept. */
export async function validate(cli: CommandLine, context: ScanContext): Promise<void> {
  // A marker on the root (each value with --ndjson) keeps no bytes and reports only where values end.
  const stream = openStream(context, cli, 'markers', ['$']);
  try {
    await pump(context, stream, () => true);
  } finally {
    stream.delete();
  }
}

// The machinery both stringify streams share: a WritableStream of values and the pull-based readable of the
// encoder they are written to. Not a TransformStream: a transformer cannot tell when its readable side is read
// again, and the encoder must wait for exactly that before advancing a source inside a value.
import { CANCELLED, Encoder } from './encoder.js';
import type { Omitted } from './frames.js';
import type { ResolvedStringifyOptions } from './options.js';
import { PullChannel } from './pull_channel.js';

/** @internal How a stream frames its values. */
export interface ElementFraming {
  /** Text before the value numbered `index`. */
  before(index: number): string;
  /** Text after each value. */
  readonly after: string;
  /** Text at the end, given how many values were written. */
  end(count: number): string;
  /** The key a replacer function and toJSON see for the value numbered `index`. */
  key(index: number): string;
  /** Nesting depth of each value. */
  readonly depth: number;
  /** OMITTED_AS_NULL or OMITTED_IS_ERROR. */
  readonly omitted: Omitted;
}

/** @internal */
export interface ElementPair<T> {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<T>;
}

/** @internal */
export function openElementStream<T>(
  options: ResolvedStringifyOptions,
  framing: ElementFraming,
  writableStrategy: QueuingStrategy<T> | undefined,
  readableStrategy: QueuingStrategy<Uint8Array> | undefined,
): ElementPair<T> {
  let writableController: WritableStreamDefaultController | undefined;
  let encoder: Encoder | undefined;
  const channel = new PullChannel(
    () => {},
    (reason) => {
      // The consumer went away: the writer's next write fails, so a pipeTo() cancels its source.
      writableController?.error(reason);
      return encoder!.cancel(reason);
    },
    readableStrategy,
  );
  encoder = new Encoder(options, channel);
  const withHolder = options.replacer !== undefined;
  let count = 0;
  const abort = (reason: unknown): Promise<void> => {
    channel.error(reason);
    return encoder!.cancel(reason);
  };

  const writable = new WritableStream<T>(
    {
      start(controller) {
        writableController = controller;
        // abort() waits for the write in flight before it calls the sink's abort(), and that write may be waiting
        // for the reader (or a source) for good; the signal fires at once.
        controller.signal?.addEventListener('abort', () => void abort(controller.signal.reason));
      },
      async write(value) {
        const index = count++;
        const key = framing.key(index);
        encoder!.writeText_(framing.before(index));
        try {
          await encoder!.write(withHolder ? { [key]: value } : undefined, key, value, framing.depth, framing.omitted);
        } catch (error) {
          if (error !== CANCELLED) channel.error(error);
          throw error;
        }
        if (framing.after !== '') encoder!.writeText_(framing.after);
        // Flushed as a shorter chunk if no other value follows within this task.
        encoder!.flushWhenIdle_();
      },
      close() {
        encoder!.writeText_(framing.end(count));
        encoder!.flush();
        channel.close();
      },
      abort,
    },
    writableStrategy,
  );

  return { readable: channel.stream, writable };
}

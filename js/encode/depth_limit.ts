// The encoder's depth limit (options.maxDepth): the error naming where the value nests too deep. Only built when
// thrown: the path is read back from the frames then, so the walk keeps no path of its own.
import { JsonStringifyLimitError } from '../errors.js';
import { OBJECT, ROOT, type Frame } from './frames.js';

// A path longer than this is shortened in the message (its two ends kept); `error.path` has all of it.
const SHOWN_PATH = 120;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The member or element each open frame is writing, as a JSONPath from the value written. */
function pathOf(frames: readonly Frame[]): string {
  let path = '$';
  for (const frame of frames) {
    if (frame.kind === ROOT) {
      // A stringify stream's value inside its array (depth 1) is named by its index there.
      if (frame.depth > 0) path += `[${frame.key}]`;
      continue;
    }
    // The member or element being written is the last one taken (index was advanced past it).
    const index = frame.index - 1;
    if (frame.kind === OBJECT) {
      const key = frame.keys[index]!;
      path += IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
    } else {
      path += `[${index}]`;
    }
  }
  return path;
}

/**
 * @internal The error for a value whose container would open nesting `maxDepth + 1`; `frames` are the frames
 * open above that container.
 */
export function depthError(frames: readonly Frame[], maxDepth: number): JsonStringifyLimitError {
  const path = pathOf(frames);
  const half = SHOWN_PATH >> 1;
  const shown = path.length <= SHOWN_PATH ? path : `${path.slice(0, half)}...${path.slice(path.length - half)}`;
  return new JsonStringifyLimitError(
    `Cannot write JSON: nesting deeper than maxDepth (${maxDepth}) at ${shown}`,
    maxDepth,
    path,
  );
}

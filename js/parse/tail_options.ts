// The options a streamed query with a JS tail (js/query/split.ts) cannot honour, refused at the call.
import { misuse, type ApiName } from '../validate.js';
import { INTEGERS_NUMBER, type IntegersMode } from './integers.js';
import type { ArrayWindowSpec, QueryTail } from '../query/split.js';

/** @internal The options checkTails reads. */
export interface TailOptions {
  readonly output: string;
  readonly reviver: unknown;
  readonly integers: IntegersMode;
  readonly withOffset: boolean;
  /** options.onInvalidLine is set. */
  readonly onInvalidLine: boolean;
}

/**
 * @internal Refuses the options a query with a tail cannot honour: the nodes a tail selects inside a candidate have no exact
 * text or offset (JS read them from the candidate's value), a reviver would change what the tail's filters read,
 * and so would integers read as BigInts or strings.
 */
export function checkTails(
  api: ApiName,
  tails: readonly (QueryTail | null)[],
  windows: readonly (ArrayWindowSpec | null)[],
  selectorPaths: readonly string[],
  subject: (i: number) => string,
  paths: readonly string[],
  o: TailOptions,
): void {
  const seen = new Set<string>();
  for (const [k, tail] of tails.entries()) {
    const text = selectorPaths[k]!;
    const window = windows[k];
    if (window != null && o.onInvalidLine) {
      // A skipped line's array would look complete when the next line's starts.
      throw misuse(
        api,
        `${subject(paths.indexOf(text))} ${JSON.stringify(text)} at ${window.selector.at}: ${describeWindow(window)} ` +
          'is taken from a window over each array, which options.onInvalidLine would cut short; remove it',
      );
    }
    if (tail === null || seen.has(text)) continue;
    seen.add(text);
    const where = `${subject(paths.indexOf(text))} ${JSON.stringify(text)} at ${tail.at}`;
    const why = 'from here the query is evaluated in JS on the value of each node the part before it selects';
    if (o.reviver !== undefined) {
      throw misuse(api, `${where}: ${why}, which options.reviver would change; remove the reviver`);
    }
    if (tail.readsValues_ && o.integers !== INTEGERS_NUMBER) {
      throw misuse(
        api,
        `${where}: ${why}, and its filters compare numbers, not the integers options.integers gives; ` +
          "use integers: 'number'",
      );
    }
    if (tail.segments.length > 0 && o.output !== 'value') {
      throw misuse(
        api,
        `${where}: ${why}, and selects inside that value, where no exact text is kept: options.output ` +
          `'${o.output}' is not supported there; use output: 'value'`,
      );
    }
    if (tail.segments.length > 0 && o.withOffset) {
      throw misuse(
        api,
        `${where}: ${why}, and selects inside that value, where no place in the input is kept: ` +
          'options.withOffset is not supported there',
      );
    }
  }
}

function describeWindow(window: ArrayWindowSpec): string {
  const s = window.selector;
  return s.kind === 'index' ? `the negative index ${s.index}` : 'a slice with a negative part';
}

// Spines (docs/lazy.md): a long member of a container with few members, one of them long, and little other text
// is handed out as a frozen plain object or array whose long member stays a proxy, because every read from the root
// passes through it and a plain property is far cheaper than a proxy trap.
import { JsonLimitError, JsonSyntaxError } from '../errors.js';
import { lazyTuning } from './lazy_tuning.js';

/** What spineOf reads of a container's handler (ContainerHandler, which imports this module). */
export interface SpineCandidate {
  readonly count: number;
  spineShape_(max: number, restMax: number): boolean;
  enumerate(): void;
  spine_(): object | undefined;
}

/**
 * The container of `handler` as a frozen plain object or array when it has at most spineMaxMembers members, one
 * long one at most (a proxy), and little other text: the spine of a document that every read from the root
 * passes, such as canada.json's `features` and `features[0].geometry`. Reading a property of a plain
 * object costs the engine an inline-cached load; reading it through a proxy costs a trap, a handler call and the
 * proxy invariant checks, several times more, at every level of every path. Undefined when the container does not
 * qualify, or cannot be listed or materialised (broken text): it is then a proxy, and reading it says what is wrong.
 * A container that passes the container-table filter is listed here rather than by its first read: a container
 * handed out is read next, in practice, so the listing is not wasted.
 */
export function spineOf(handler: SpineCandidate): object | undefined {
  const max = lazyTuning.spineMaxMembers;
  if (max <= 0) return undefined;
  // Most containers are no spine, and the container table tells most of them apart without listing them (a
  // listing that moves to hand-out costs two native calls where a proxy's first read makes one; citm_catalog.json
  // 1 % took 0.1 to 0.3 ms longer). Keys, separators and whitespace count in the text here: up to 64 bytes a member.
  if (!handler.spineShape_(max, (lazyTuning.proxyMinBytes >> 3) + max * 64)) return undefined;
  try {
    handler.enumerate();
    if (handler.count > max) return undefined;
    return handler.spine_();
  } catch (error) {
    if (error instanceof JsonSyntaxError || error instanceof JsonLimitError) return undefined;
    throw error;
  }
}

// What an iteration (open_json_iterate.ts, open_json_expand.ts) reads of its document: an interface of its own, so
// that the iterators need not import open_json.ts, which imports them to construct them.
import type { IntegersMode } from '../parse/integers.js';
import type { Cursor } from './open_json_cursor.js';
import type { CopyFilter, DriverEvent } from './open_json_driver.js';
import type { Plan } from './open_json_plan.js';
import type { ByteStore } from './open_json_store.js';

/** @internal The document as its iterations see it (OpenDocument in open_json.ts). */
export interface IterableDocument {
  readonly transient: boolean;
  readonly store: ByteStore;
  readonly cursor: Cursor;
  readonly integers: IntegersMode;
  /** Waits for the requests before this one, then holds the document; returns the release. */
  holdForIteration_(path: string): Promise<() => void>;
  /** The plan's parser over the bytes held, then over the source: the events of each chunk. */
  scan(plan: Plan, copy?: CopyFilter): AsyncGenerator<DriverEvent[], void, undefined>;
}

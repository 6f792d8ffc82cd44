// The proxies of lazyParse(): an object or array of the document that reads like the JSON.parse result and
// materialises members only when they are touched (container_handler.ts and the two kinds of handler), as a
// proxy, or as a frozen spine (spine.ts).
import { ArrayHandler } from './array_handler.js';
import type { ContainerHandler } from './container_handler.js';
import type { LazyDocument } from './lazy_document.js';
import { ObjectHandler } from './object_handler.js';
import { proxyOf } from './proxy_target.js';

const OPEN_BRACE = 0x7b;

/**
 * One object proxy and one array proxy (their handlers and targets) that no document uses, kept for the life of the
 * module. V8's optimised code for the proxies refers to the hidden classes of these objects, and of the documents,
 * weakly: once a document and everything taken from it is collected, the classes can be too, and every function
 * optimised with them is then thrown away at that garbage collection ("weak objects") and optimised again during
 * the next document. A program reading one document after another (a server, the bench's warm reads) paid for it
 * on every document: canada.json 1 % took 10-15 ms per document instead of about 3.3 ms. Objects of the same
 * classes that stay alive keep the classes, and so the optimised code.
 */
let shapeKeepers: object[] | null = null;

/** @internal Creates the shape keepers, once, around the document `make` returns (one with no native index). */
export function keepShapes(make: () => LazyDocument<ContainerHandler>): void {
  if (shapeKeepers !== null) return;
  const doc = make();
  shapeKeepers = [proxyOf(new ObjectHandler(doc, 0)), proxyOf(new ArrayHandler(doc, 0))];
}

/** @internal The proxy for container `id` of `doc` whose first byte is `first`. */
export function lazyContainer(doc: LazyDocument<ContainerHandler>, id: number, first: number): object {
  return proxyOf(newHandler(doc, id, first));
}

/** @internal The handler of container `id` of `doc` whose first byte is `first` (the document's newHandler). */
export function newHandler(doc: LazyDocument<ContainerHandler>, id: number, first: number): ContainerHandler {
  return first === OPEN_BRACE ? new ObjectHandler(doc, id) : new ArrayHandler(doc, id);
}

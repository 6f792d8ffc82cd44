// The targets of lazyParse()'s proxies: an empty object or array whose prototype carries Node's custom-inspect
// hook (the proxy never reports it), so that console.log shows the members.
/**
 * Node's util.inspect (console.log) formats a proxy's target without running any trap, which would print `{}` or
 * `[]`. The target inherits Node's custom-inspect hook instead, which Node calls with the proxy as `this`: a
 * snapshot of the members, lazy ones still proxies (inspected the same way, to inspect's depth). It lives on a
 * prototype of the target that the proxy never reports (getPrototypeOf answers Object.prototype or
 * Array.prototype, which the invariants allow for an extensible target), so no JSON.parse-like read sees it, and
 * making a proxy costs no property definition.
 */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

function inspectMembers(this: object): unknown {
  return Array.isArray(this) ? Array.from(this as unknown[]) : Object.fromEntries(Object.entries(this));
}

const hook = { [INSPECT]: { value: inspectMembers, configurable: true } };
const OBJECT_TARGET = Object.create(Object.prototype, hook) as object;
const ARRAY_TARGET = Object.create(Array.prototype, hook) as object;

/** A proxy handler of either kind (container_handler.ts). */
export interface KindOfHandler {
  readonly isArray: boolean;
}

/** The proxy of `handler`, over a fresh target of its kind. */
export function proxyOf(handler: KindOfHandler): object {
  let target: object;
  if (!handler.isArray) {
    target = Object.create(OBJECT_TARGET) as object;
  } else {
    target = [];
    Object.setPrototypeOf(target, ARRAY_TARGET);
  }
  return new Proxy(target, handler as ProxyHandler<object>);
}

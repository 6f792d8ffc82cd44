// Normalized paths (RFC 9535 §2.7): `$` then `['name']` or `[index]` per step, one spelling per location, so that
// two paths are equal exactly when they name the same node. Member names are single-quoted with the escapes of
// §2.7 only: \b \f \n \r \t \' \\ by name, the other controls as \u00xx in lower-case hex, everything else as is.

/**
 * @internal Where a node is: its parent's location and its key there (a member name or an array index). A class,
 * not an interface: scripts/mangle_props.mjs keeps the names of interface members the DOM also declares (`parent`).
 */
export class Location {
  constructor(
    readonly parent_: Location | null,
    readonly key_: string | number,
  ) {}
}

const NAMED: Readonly<Record<number, string>> = {
  8: '\\b',
  12: '\\f',
  10: '\\n',
  13: '\\r',
  9: '\\t',
  39: "\\'",
  92: '\\\\',
};

/** @internal `name` as a normalized path's quoted name selector, quotes included. */
export function quoteName(name: string): string {
  let out = "'";
  let run = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x20 && c !== 0x27 && c !== 0x5c) continue;
    out += name.slice(run, i) + (NAMED[c] ?? `\\u00${c.toString(16).padStart(2, '0')}`);
    run = i + 1;
  }
  return `${out + name.slice(run)}'`;
}

/** @internal One step of a normalized path: `[index]` or `['name']`. */
export function normalizedStep(key: string | number): string {
  return typeof key === 'number' ? `[${key}]` : `[${quoteName(key)}]`;
}

/** @internal The normalized path of a location (`null`: the root). */
export function normalizedPath(location: Location | null): string {
  const steps: string[] = [];
  for (let at = location; at !== null; at = at.parent_) steps.push(normalizedStep(at.key_));
  return `$${steps.reverse().join('')}`;
}

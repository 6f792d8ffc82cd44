// openJson's view of a path: a linear RFC 9535 query (js/parse/json_path.ts checks it at the call) as a list
// of steps, so the document can compare a request with where its forward cursor stands, name the ancestors whose
// end tells that a value is absent, and write the synthetic prefix that restarts a parser in the middle of the
// stream.
import type { PathStep } from '../parse/json_path.js';

/** One step: a member name, an array index, or `null` for the wildcard (`.*`, `[*]`). */
export type Step = PathStep;

/** Steps as a user writes them: `$.meta.total`, `$.orders[3]`, `$['a b']`. */
export function displayPath(steps: readonly Step[]): string {
  let out = '$';
  for (const s of steps) {
    if (s === null) out += '[*]';
    else if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) out += '.' + s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** Where a value stands relative to the cursor (which is just after the value at `cursor`). */
export type Relation =
  | { kind: 'ahead' }
  | { kind: 'passed' }
  | { kind: 'absent' }
  /** A sibling member of the same object was passed: the value comes later or came earlier. */
  | { kind: 'unknown'; object: Step[] };

/**
 * Whether the value at definite `steps` starts after the cursor. `cursor` is null before anything was read, and
 * is always a definite path of a value that exists.
 */
export function relation(steps: readonly Step[], cursor: readonly Step[] | null): Relation {
  if (cursor === null) return { kind: 'ahead' };
  const n = Math.min(steps.length, cursor.length);
  for (let k = 0; k < n; k++) {
    const a = steps[k]!;
    const b = cursor[k]!;
    if (a === b) continue;
    if (typeof a !== typeof b) return { kind: 'absent' }; // a name in an array, an index in an object
    if (typeof a === 'number') return a > (b as number) ? { kind: 'ahead' } : { kind: 'passed' };
    return { kind: 'unknown', object: steps.slice(0, k) };
  }
  // The value is the cursor's, one of its ancestors or inside it: its first byte was read.
  return { kind: 'passed' };
}

/**
 * JSON text that leaves a parser where the real one is just after the value at `cursor`: inside the same
 * containers, at the same keys, expecting "," or a closing bracket. Each array on the way is entered at index 0,
 * whatever the real index (a prefix of `[0,0,...` would cost as much as the elements it stands for): the selectors
 * are written relative to it by localPath(). It holds no newline, so line numbers after it only need the real
 * count added.
 */
export function syntheticPrefix(cursor: readonly Step[]): string {
  let out = '';
  for (const s of cursor) out += typeof s === 'number' ? '[' : `{${JSON.stringify(s)}:`;
  // The space ends the placeholder: the real byte after the cursor is then read as after a complete value, as a
  // full read sees it (behind a bare `0`, a stray `1` or `x` would continue the number: INVALID_NUMBER).
  return out + '0 ';
}

/**
 * `steps` as a parser restarted behind syntheticPrefix(cursor) sees them: in an array the cursor is inside (the
 * steps so far being the cursor's), index N becomes N minus the cursor's index there. The requests that restart
 * at the cursor only ask for values after it, so the difference is never negative.
 */
export function localPath(steps: readonly Step[], cursor: readonly Step[] | null): Step[] {
  if (cursor === null) return [...steps];
  const out: Step[] = [];
  let same = true;
  for (let k = 0; k < steps.length; k++) {
    const s = steps[k]!;
    const c = cursor[k];
    out.push(same && typeof s === 'number' && typeof c === 'number' ? s - c : s);
    same = same && k < cursor.length && s === c;
  }
  return out;
}

/** Proper ancestors of steps except the root, nearest first, at most `max`. */
export function ancestors(steps: readonly Step[], max: number): Step[][] {
  const out: Step[][] = [];
  for (let k = steps.length - 1; k >= 1 && out.length < max; k--) out.push(steps.slice(0, k));
  return out;
}

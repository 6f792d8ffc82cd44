// openJson's view of a path: the parser's JSONPath subset (src/internal/selector.h) as a list of steps, so the
// document can compare a request with where its forward cursor stands, name the ancestors whose end tells that a
// value is absent, and write the synthetic prefix that restarts a parser in the middle of the stream.

/** One step: a member name, an array index, or `null` for the wildcard (`.*`, `[*]`). */
export type Step = string | number | null;

const HEX = /^[0-9a-fA-F]{4}$/;

function isNameFirst(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 0x80;
}

function isNameChar(c: number): boolean {
  return isNameFirst(c) || (c >= 48 && c <= 57);
}

/**
 * Parses `path` as the native selector parser does. Throws a TypeError naming `what` (e.g. `doc.get(path)`) and
 * the offending character otherwise.
 */
export function parsePath(path: unknown, what: string): Step[] {
  if (typeof path !== 'string') throw new TypeError(`${what}: the path must be a string, got ${typeof path}`);
  const fail = (at: number): never => {
    const found = at < path.length ? `unexpected ${JSON.stringify(path[at])}` : 'unexpected end';
    throw new TypeError(
      `${what}: ${JSON.stringify(path)} is not a supported path: ${found} at index ${at} ` +
        `(supported: $, .name, ['name'], ["name"], [*], .*, [N])`,
    );
  };
  if (path[0] !== '$') fail(0);
  const steps: Step[] = [];
  let i = 1;
  const blanks = (): void => {
    while (i < path.length && ' \t\n\r'.includes(path[i]!)) i++;
  };
  while (i < path.length) {
    if (path[i] === '.') {
      i++;
      if (path[i] === '*') {
        steps.push(null);
        i++;
        continue;
      }
      if (i >= path.length || !isNameFirst(path.charCodeAt(i))) fail(i);
      const start = i;
      while (i < path.length && isNameChar(path.charCodeAt(i))) i++;
      steps.push(path.slice(start, i));
      continue;
    }
    if (path[i] !== '[') fail(i);
    i++;
    blanks();
    const c = path[i];
    if (c === '*') {
      steps.push(null);
      i++;
    } else if (c === '"' || c === "'") {
      i++;
      let name = '';
      for (;;) {
        if (i >= path.length) fail(path.length);
        const ch = path[i]!;
        if (ch === c) {
          i++;
          break;
        }
        if (ch.charCodeAt(0) < 0x20) fail(i);
        if (ch !== '\\') {
          name += ch;
          i++;
          continue;
        }
        const e = path[i + 1];
        if (e === undefined) fail(path.length);
        const simple: Record<string, string> = {
          '"': '"',
          "'": "'",
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        if (e === 'u') {
          const hex = path.slice(i + 2, i + 6);
          if (!HEX.test(hex)) fail(i);
          name += String.fromCharCode(parseInt(hex, 16));
          i += 6;
          continue;
        }
        if (simple[e!] === undefined) fail(i + 1);
        name += simple[e!];
        i += 2;
      }
      steps.push(name);
    } else if (c !== undefined && c >= '0' && c <= '9') {
      if (c === '0' && path[i + 1] !== undefined && path[i + 1]! >= '0' && path[i + 1]! <= '9') fail(i + 1);
      let v = 0;
      while (i < path.length && path[i]! >= '0' && path[i]! <= '9') {
        v = v * 10 + (path.charCodeAt(i) - 48);
        if (v > 2 ** 53) fail(i);
        i++;
      }
      steps.push(v);
    } else {
      fail(i);
    }
    blanks();
    if (path[i] !== ']') fail(i);
    i++;
  }
  return steps;
}

/** The canonical text of steps, which the native parser reads back to the same steps. */
export function pathText(steps: readonly Step[]): string {
  let out = '$';
  for (const s of steps) {
    if (s === null) out += '[*]';
    else if (typeof s === 'number') out += `[${s}]`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

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
  return out + '0';
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

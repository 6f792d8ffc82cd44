// An independent reading of a JSON text for the openJson tests: every value with its path, in document order
// (pre-order, as a stream meets their first bytes), and each container's elements (all member values of an object,
// duplicates included, as `.*` selects them). On the way to a value a duplicate key's first occurrence wins: a
// forward reader answers with the first match, where JSON.parse keeps the last (docs/open_json.md says so); each
// value itself is JSON.parse of its own text.

export type Step = string | number;

export interface Entry {
  readonly steps: Step[];
  value: unknown;
  /** Arrays and objects: their elements (member values) in document order. */
  readonly elements: unknown[] | null;
}

const NUMBER_OR_LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

export function readJson(text: string): { value: unknown; entries: Entry[] } {
  const entries: Entry[] = [];
  let i = 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (steps: Step[], record: boolean): unknown => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      const start = i;
      const entry: Entry = { steps, value: undefined, elements: [] };
      if (record) entries.push(entry);
      i++;
      const object = c === '{';
      const out: unknown[] = [];
      const seen = new Set<string>();
      let index = 0;
      ws();
      if (text[i] === (object ? '}' : ']')) {
        i++;
      } else {
        for (;;) {
          ws();
          if (object) {
            const key = string();
            ws();
            i++; // ':'
            const first = !seen.has(key);
            seen.add(key);
            const v = value([...steps, key], record && first);
            entry.elements!.push(v);
          } else {
            const v = value([...steps, index++], record);
            out.push(v);
            entry.elements!.push(v);
          }
          ws();
          if (text[i++] !== ',') break;
        }
      }
      // The value itself is JSON.parse's, duplicates inside it included (last wins): only the path to it is read
      // first-match.
      void out;
      entry.value = JSON.parse(text.slice(start, i));
      return entry.value;
    }
    let v: unknown;
    if (c === '"') {
      v = string();
    } else {
      NUMBER_OR_LITERAL.lastIndex = i;
      const m = NUMBER_OR_LITERAL.exec(text);
      if (m === null) throw new Error(`oracle: no value at ${i}`);
      i += m[0].length;
      v = JSON.parse(m[0]);
    }
    if (record) entries.push({ steps, value: v, elements: null });
    return v;
  };
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  const root = value([], true);
  return { value: root, entries };
}

/** A path text for steps, each name written in one of the forms the JSONPath subset accepts. */
export function pathOf(steps: readonly Step[], pick: (n: number) => number): string {
  let out = '$';
  for (const s of steps) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && pick(2) === 0) out += '.' + s;
    else if (!/['\\]/.test(s) && !/[\u0000-\u001f]/.test(s) && pick(2) === 0) out += `['${s}']`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/**
 * Whether a path can name the value at `steps`: RFC 9535 names are Unicode strings, so a member whose key holds a
 * lone surrogate (`"\ud800"`, valid JSON) is reached by a wildcard only.
 */
export function nameable(steps: readonly Step[]): boolean {
  return steps.every((s) => typeof s === 'number' || !/[\ud800-\udfff]/u.test(s));
}

/** True when `inner` is `outer` or inside it. */
export function isWithin(inner: readonly Step[], outer: readonly Step[]): boolean {
  return inner.length >= outer.length && outer.every((s, k) => inner[k] === s);
}

// The exact text of a node a tail selects inside a candidate (js/query/split.ts), found in the candidate's text by
// the node's location, so that `select` writes it as it writes any element: its own text, compacted. The text is
// the compact-lines batch's (no insignificant whitespace) and valid JSON: the native parser checked it. Each
// container's children are indexed once, when a node below it is first asked for, so a tail over a wide or deep
// candidate (`..*`) costs each container's length once per level, not once per node.
import type { Location } from '../query/normalized_path.js';

/** Where a node's text is in the candidate's: [start, end), and its member name's JSON text (-1: none). */
export interface NodeSpan {
  readonly start: number;
  readonly end: number;
  readonly keyStart: number;
  readonly keyEnd: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/** A container's children: an array's spans by index, or an object's by name (a repeated name: its last). */
type Children = NodeSpan[] | Map<string, NodeSpan>;

export class CandidateText {
  readonly text: string;
  private readonly spans_ = new Map<Location, NodeSpan>();
  private readonly children_ = new Map<number, Children>();

  constructor(text: string) {
    this.text = text;
  }

  /** The span of the node at `location` (null: the candidate), which the candidate's value has. */
  span(location: Location | null): NodeSpan {
    if (location === null) return { start: 0, end: this.text.length, keyStart: -1, keyEnd: -1 };
    const known = this.spans_.get(location);
    if (known !== undefined) return known;
    // From the nearest known ancestor down: no recursion, whatever the depth.
    const chain: Location[] = [];
    let parent: NodeSpan | undefined;
    for (let at: Location | null = location; ; at = at.parent_) {
      if (at === null) {
        parent = this.span(null);
        break;
      }
      parent = this.spans_.get(at);
      if (parent !== undefined) break;
      chain.push(at);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const step = chain[i]!;
      const children = this.childrenAt_(parent.start);
      const span = Array.isArray(children) ? children[step.key_ as number] : children.get(step.key_ as string);
      if (span === undefined) throw new Error(`no node ${String(step.key_)} at ${parent.start} of the candidate`);
      this.spans_.set(step, span);
      parent = span;
    }
    return parent;
  }

  private childrenAt_(start: number): Children {
    let children = this.children_.get(start);
    if (children === undefined) {
      children = this.index_(start);
      this.children_.set(start, children);
    }
    return children;
  }

  /** The children of the container whose text starts at `start`. */
  private index_(start: number): Children {
    const text = this.text;
    const object = text.charCodeAt(start) === OPEN_BRACE;
    const items: NodeSpan[] = [];
    const members = new Map<string, NodeSpan>();
    let i = start + 1;
    const close = text.charCodeAt(i);
    if (close === CLOSE_BRACKET || close === CLOSE_BRACE) return object ? members : items;
    for (;;) {
      if (object) {
        const keyEnd = this.skipString_(i);
        const raw = text.slice(i + 1, keyEnd - 1);
        const name = raw.includes('\\') ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
        const end = this.skipValue_(keyEnd + 1);
        members.set(name, { start: keyEnd + 1, end, keyStart: i, keyEnd });
        i = end;
      } else {
        const end = this.skipValue_(i);
        items.push({ start: i, end, keyStart: -1, keyEnd: -1 });
        i = end;
      }
      if (text.charCodeAt(i) !== COMMA) return object ? members : items;
      i++;
    }
  }

  /** The end of the value starting at i. */
  private skipValue_(i: number): number {
    const text = this.text;
    const c = text.charCodeAt(i);
    if (c === QUOTE) return this.skipString_(i);
    if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      let depth = 0;
      for (let j = i; ; j++) {
        const d = text.charCodeAt(j);
        if (d === QUOTE) j = this.skipString_(j) - 1;
        else if (d === OPEN_BRACKET || d === OPEN_BRACE) depth++;
        else if ((d === CLOSE_BRACKET || d === CLOSE_BRACE) && --depth === 0) return j + 1;
      }
    }
    // A number or a literal: up to what ends it in compact text.
    let j = i + 1;
    for (; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === COMMA || d === CLOSE_BRACKET || d === CLOSE_BRACE) break;
    }
    return j;
  }

  /** The end of the string starting at i (its opening quote), past its closing quote. */
  private skipString_(i: number): number {
    const text = this.text;
    for (let j = i + 1; ; ) {
      const q = text.indexOf('"', j);
      let b = q - 1;
      while (text.charCodeAt(b) === BACKSLASH) b--;
      // An even run of backslashes before the quote escapes only itself.
      if ((q - 1 - b) % 2 === 0) return q + 1;
      j = q + 1;
    }
  }
}

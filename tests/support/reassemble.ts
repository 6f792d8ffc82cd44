// Proves that element texts are exact slices of their source: walks a container's text and checks that it is
// made of nothing but the given element texts (and member keys) joined by JSON's separators and whitespace.

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

export interface Item {
  /** For object members: the decoded member name, compared with the raw key found in the text. */
  key?: string;
  text: string;
}

/**
 * `kind` says what holds the items: an array text (`[` a `,` b `]`), an object text (`{` "k" `:` a ... `}`),
 * or a whole NDJSON text (whitespace between values). Returns the first mismatch, or null.
 */
export function reassemblyMismatch(
  container: string,
  kind: 'array' | 'object' | 'ndjson',
  items: Item[],
): string | null {
  let at = 0;
  const skipWhitespace = () => {
    while (at < container.length && WHITESPACE.has(container[at])) at++;
  };
  const expect = (char: string) => {
    skipWhitespace();
    if (container[at] !== char)
      return `expected ${JSON.stringify(char)} at ${at}, found ${JSON.stringify(container.slice(at, at + 20))}`;
    at++;
    return null;
  };
  if (kind !== 'ndjson') {
    const problem = expect(kind === 'array' ? '[' : '{');
    if (problem) return problem;
  }
  for (const [index, item] of items.entries()) {
    if (index > 0 && kind !== 'ndjson') {
      const problem = expect(',');
      if (problem) return problem;
    }
    skipWhitespace();
    if (kind === 'object') {
      if (container[at] !== '"') return `member ${index}: no key at ${at}`;
      const keyEnd = endOfString(container, at);
      const key = JSON.parse(container.slice(at, keyEnd)) as string;
      if (key !== item.key)
        return `member ${index}: key ${JSON.stringify(item.key)}, the text has ${JSON.stringify(key)}`;
      at = keyEnd;
      const problem = expect(':');
      if (problem) return problem;
      skipWhitespace();
    }
    if (!container.startsWith(item.text, at)) {
      return `item ${index} at ${at}: ${JSON.stringify(item.text.slice(0, 40))} is not the text there: ${JSON.stringify(container.slice(at, at + 40))}`;
    }
    at += item.text.length;
  }
  if (kind !== 'ndjson') {
    const problem = expect(kind === 'array' ? ']' : '}');
    if (problem) return problem;
  }
  skipWhitespace();
  return at === container.length ? null : `text left over at ${at}: ${JSON.stringify(container.slice(at, at + 40))}`;
}

function endOfString(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') return at + 1;
  }
  return text.length;
}

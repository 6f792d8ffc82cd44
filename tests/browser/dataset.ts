// Deterministic article documents for the streaming tests, in the shape of the benchmark dataset
// (`{"_embedded":{"articles":[...]},"total":N}`), written as text so that each element's exact source is known:
// escapes (`\n`, `\"`, `\u00e9`, `\/`), raw non-ASCII of 2, 3 and 4 bytes, one article per line.

export interface ArticleDocument {
  readonly bytes: Uint8Array;
  /** The exact source text of each article, in order. */
  readonly elements: readonly string[];
}

const WORDS = [
  'stream',
  'json',
  'édition',
  '中文',
  'emoji 😀',
  'wasm',
  'edge',
  'quote \\"q\\"',
  'tab\\t',
  'é=\\u00e9',
  'slash \\/',
  'line\\nbreak',
  'über',
  '∑ sum',
  'naïve',
];

function xorshift(seed: number) {
  let state = seed >>> 0 || 1;
  return (n: number) => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
}

/** Everything of an article after its id: about 400 bytes. */
function articleBody(rand: (n: number) => number): string {
  const words = (n: number) => Array.from({ length: n }, () => WORDS[rand(WORDS.length)]).join(' ');
  const tags = Array.from({ length: 1 + rand(4) }, () => `"${WORDS[rand(WORDS.length)]}"`).join(',');
  const score = rand(2) ? String(rand(100000) / 100) : `-${rand(1000)}e-${rand(5)}`;
  return (
    `"title":"${words(4)}","description":"${words(20 + rand(20))}",` +
    `"createdAt":"2024-0${1 + rand(9)}-1${rand(10)}T12:00:00Z","tags":[${tags}],"score":${score},` +
    `"published":${rand(2) ? 'true' : 'false'},"author":${rand(5) ? `{"name":"${words(2)}"}` : 'null'}}`
  );
}

// Articles reuse a pool of bodies (a prime count, so neighbours differ): generating 50 MB stays well under 1 s.
const POOL = 997;

/** About `targetBytes` of articles; the same bytes for the same arguments on every run. */
export function articleDocument(targetBytes: number, seed = 42): ArticleDocument {
  const rand = xorshift(seed);
  const bodies = Array.from({ length: POOL }, () => articleBody(rand));
  const elements: string[] = [];
  let size = 0;
  while (size < targetBytes) {
    const id = elements.length + 1;
    const text = `{"id":${id},${bodies[id % POOL]}`;
    elements.push(text);
    size += text.length * 1.1; // close enough: the bodies are mostly ASCII
  }
  const text = `{"_embedded":{"articles":[\n${elements.join(',\n')}\n]},"total":${elements.length}}\n`;
  return { bytes: Buffer.from(text), elements };
}

// Type-checked against the installed package's .d.ts (never run): the API's types are precise, not `any`.
import {
  createParser,
  init,
  JsonArrayStream,
  JsonSyntaxError,
  parseJsonArray,
  type ElementWithPath,
  type JsonSource,
  type ParserOptions,
} from 'sluice';

interface Article {
  id: number;
  title: string;
}

export async function consume(res: Response): Promise<void> {
  await init(new URL('https://example.com/sluice.simd.wasm'));
  await init(new URL('https://example.com/sluice.simd.wasm'), {
    lazyModule: fetch('https://example.com/sluice-lazy.simd.wasm'),
  });
  // @ts-expect-error: `lazy` is not an option of init()
  await init(undefined, { lazy: new URL('https://example.com/sluice-lazy.simd.wasm') });
  for await (const article of parseJsonArray<Article>(res.body, { path: '$._embedded.articles[*]' })) {
    const id: number = article.id;
    // @ts-expect-error: an Article has no `missing` field
    article.missing;
    void id;
  }
  for await (const bytes of parseJsonArray(res.body, { output: 'bytes' })) {
    const view: Uint8Array = bytes;
    void view;
  }
  for await (const item of parseJsonArray(res.body, { output: 'text', withPath: true })) {
    const entry: ElementWithPath<string> = item;
    const text: string = entry.value;
    void text;
  }
  const parser = createParser({ output: 'text' });
  const texts: string[] = parser.push('[1]');
  void texts;
  // @ts-expect-error: output must be 'value', 'bytes' or 'text'
  createParser({ output: 'json' });
  const options: ParserOptions = { maxDepth: 10, ndjson: true };
  const source: JsonSource = res.body;
  const stream: ReadableStream<unknown> = new Response('[]').body!.pipeThrough(new JsonArrayStream(options));
  void source;
  void stream;
  try {
    createParser().push('[,]');
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      const where: number = error.offset + error.line + error.column;
      const code: string = error.code;
      void where;
      void code;
    }
  }
}

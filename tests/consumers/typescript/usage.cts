// What a TypeScript user writes; compiled as an ES module or as CommonJS depending on the configuration (and this
// package's "type": "commonjs"). Every name must resolve to the package's declarations with its real type.
import {
  createParser,
  init,
  JsonSyntaxError,
  lazyParse,
  parseJsonArray,
  partialJson,
  StreamedJsonResponse,
  type InitOptions,
  type PushParser,
} from 'sluice';

export async function usage(text: string): Promise<number> {
  const options: InitOptions = {};
  await init(undefined, options);
  const parser: PushParser<unknown> = createParser({ path: '$[*]' });
  const pushed: unknown[] = parser.push(text);
  let count = pushed.length;
  for await (const element of parseJsonArray(text, { path: '$[*]', output: 'text' })) count += element.length;
  for await (const snapshot of partialJson(text)) count += snapshot === undefined ? 0 : 1;
  const response: Response = new StreamedJsonResponse({ n: count });
  const doc = lazyParse(text) as unknown[];
  try {
    createParser().end();
  } catch (error) {
    if (error instanceof JsonSyntaxError) count += error.offset;
  }
  return count + doc.length + (response.ok ? 1 : 0);
}

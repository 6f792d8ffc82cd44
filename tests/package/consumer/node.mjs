// Node ESM consumer of the installed package: the default loader (the SIMD build next to the package, read with
// node:fs), every entry point, and the .wasm subpath exports. Prints one JSON line for the test to check.
import { createRequire } from 'node:module';
import {
  createParser,
  init,
  JsonArrayStream,
  JsonLimitError,
  JsonSyntaxError,
  lazyParse,
  parseJsonArray,
  SluiceLoadError,
} from 'sluice';

const elements = [];
for await (const article of parseJsonArray('{"data":[{"id":1},{"id":2,"t":"é😀"}]}', { path: '$.data[*]' })) {
  elements.push(article);
}
await init();
const parser = createParser({ output: 'text' });
const texts = [...parser.push('[1, [2] ,"x"'), ...parser.push(']'), ...parser.end()];
const piped = [];
const reader = new Response('[true,null]').body.pipeThrough(new JsonArrayStream()).getReader();
for (let r = await reader.read(); !r.done; r = await reader.read()) piped.push(r.value);
let error = null;
const failing = createParser();
const beforeError = failing.push('[1,]');
try {
  failing.end();
} catch (caught) {
  error = { isSyntax: caught instanceof JsonSyntaxError, code: caught.code, offset: caught.offset };
}
// The lazy index's module, loaded by init() next to the parser's (the default: the SIMD build next to the package).
const lazy = lazyParse('{"a":[1,{"b":"c"}]}').a[1].b;
const resolve = (specifier) => import.meta.resolve(specifier);
const require = createRequire(import.meta.url);
console.log(
  JSON.stringify({
    elements,
    texts,
    piped,
    beforeError,
    error,
    lazy,
    classes: [typeof JsonLimitError, typeof SluiceLoadError],
    wasm: ['sluice.simd.wasm', 'sluice.scalar.wasm', 'sluice-lazy.simd.wasm', 'sluice-lazy.scalar.wasm'].map((file) =>
      resolve(`sluice/${file}`).split('/').slice(-2).join('/'),
    ),
    version: require('sluice/package.json').version,
  }),
);

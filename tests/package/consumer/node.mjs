// Node ESM consumer of the installed package: the default loader (the SIMD build next to the package, read with
// node:fs), every entry point, and the .wasm subpath exports. Prints one JSON line for the test to check.
import { createRequire } from 'node:module';
import {
  createParser, init, JsonArrayStream, JsonLimitError, JsonSyntaxError, parseJsonArray, SluiceLoadError,
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
const resolve = (specifier) => import.meta.resolve(specifier);
const require = createRequire(import.meta.url);
console.log(JSON.stringify({
  elements, texts, piped, beforeError, error,
  classes: [typeof JsonLimitError, typeof SluiceLoadError],
  wasm: [resolve('sluice/sluice.simd.wasm'), resolve('sluice/sluice.scalar.wasm')].map((url) => url.split('/').slice(-2).join('/')),
  version: require('sluice/package.json').version,
}));

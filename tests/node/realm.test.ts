// Every type check of an argument holds for values from another realm (js/realm.ts): an iframe, a worker's transfer,
// a `vm` context (Next.js compiles its Edge routes' `?module` imports in one). Each value here is made by
// vm.runInNewContext, whose WebAssembly.Module, ArrayBuffer and Uint8Array are not ours. init() cases run in a fresh
// process, since the loader's state is the process's.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { expect, inject, test } from 'vitest';
import {
  createParser,
  createPartialParser,
  lazyParse,
  openJson,
  parseJsonArray,
  rawJson,
  stringifyStream,
} from '../../dist/index.js';

const build = inject('sluiceBuild');
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const TEXT = '{"a":[1,{"b":"\u00e9"}]}';

/** `TEXT`'s bytes as a Uint8Array of a new realm (`foreign.buffer` is that realm's ArrayBuffer). */
function foreignBytes(text = TEXT): Uint8Array {
  const bytes = vm.runInNewContext('new Uint8Array(Array.from(codes))', { codes: [...Buffer.from(text)] });
  expect(bytes instanceof Uint8Array).toBe(false);
  expect(bytes.buffer instanceof ArrayBuffer).toBe(false);
  return bytes as Uint8Array;
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

async function readText(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

test('init(): a WebAssembly.Module, an ArrayBuffer and a Uint8Array of another realm', () => {
  const script = `
    import vm from 'node:vm';
    import { readFileSync } from 'node:fs';
        const { init, createParser } = await import(${JSON.stringify(join(DIST, 'index.js'))});
    const { loadedBuildKind } = await import(${JSON.stringify(join(DIST, 'internal.js'))});
    const file = readFileSync(${JSON.stringify(join(DIST, `sluice.${build}.wasm`))});
    const codes = [...file];
    const results = [];
    for (const make of ['new WebAssembly.Module(new Uint8Array(codes))', 'new Uint8Array(codes).buffer',
        'new Uint8Array(codes)']) {
      const value = vm.runInNewContext(make, { codes });
      try {
        await init(value);
        results.push([loadedBuildKind(), createParser({ path: '$[*]' }).push('[1,"x"]').length]);
      } catch (error) {
        results.push([error.constructor.name, error.message]);
      }
    }
    console.log(JSON.stringify(results));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  const kind = build === 'simd' ? 'simd128' : 'scalar';
  expect(JSON.parse(out)).toEqual([
    [kind, 2],
    [kind, 2],
    [kind, 2],
  ]);
});

test('init(): an object that only claims to be a WebAssembly.Module is a TypeError', () => {
  const script = `
    const { init } = await import(${JSON.stringify(join(DIST, 'index.js'))});
    const fake = { [Symbol.toStringTag]: 'WebAssembly.Module' };
    console.log(JSON.stringify(await init(fake).then(() => 'loaded', (e) => [e.constructor.name, e.message])));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(JSON.parse(out)[0]).toBe('TypeError');
});

test('parser chunks, sources and lazyParse input of another realm', async () => {
  const expected = JSON.parse(TEXT).a;
  expect(createParser({ path: '$.a[*]' }).push(foreignBytes())).toEqual(expected);
  expect(createParser({ path: '$.a[*]' }).push(foreignBytes().buffer as ArrayBuffer)).toEqual(expected);
  expect(await collect(parseJsonArray(foreignBytes(), { path: '$.a[*]' }))).toEqual(expected);
  expect((lazyParse(foreignBytes()) as { a: [number, { b: string }] }).a[1].b).toBe('\u00e9');
  expect((lazyParse(foreignBytes().buffer as ArrayBuffer) as { a: number[] }).a[0]).toBe(1);
  const doc = openJson(
    (async function* () {
      yield foreignBytes();
    })(),
  );
  expect(await doc.get('$.a[1].b')).toBe('\u00e9');
  await doc.close();
});

test('partial parser chunks of another realm', () => {
  const parser = createPartialParser();
  parser.push(foreignBytes());
  expect(parser.end()).toEqual(JSON.parse(TEXT));
  const fromBuffer = createPartialParser();
  fromBuffer.push(foreignBytes().buffer as ArrayBuffer);
  expect(fromBuffer.end()).toEqual(JSON.parse(TEXT));
});

test('rawJson(): bytes of another realm, whole and as a stream of chunks', async () => {
  expect(await readText(stringifyStream({ raw: rawJson(foreignBytes()) }))).toBe(`{"raw":${TEXT}}`);
  const chunks = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(foreignBytes(TEXT.slice(0, 5)));
      controller.enqueue(foreignBytes(TEXT.slice(5)));
      controller.close();
    },
  });
  expect(await readText(stringifyStream([rawJson(chunks)]))).toBe(`[${TEXT}]`);
});

test('a Response-shaped source of another realm', async () => {
  const response = vm.runInNewContext(
    `({ body, headers: { get() { return null; } }, bodyUsed: false, arrayBuffer() { throw new Error('unused'); },
        get [Symbol.toStringTag]() { return 'Response'; } })`,
    { body: new Response(TEXT).body },
  );
  expect(await collect(parseJsonArray(response, { path: '$.a[*]' }))).toEqual(JSON.parse(TEXT).a);
});

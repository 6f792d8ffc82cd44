// The package as users get it: `npm pack`, installed into a fresh project, then used from Node ESM, bundled for
// the browser with esbuild and run in Chromium, Firefox and WebKit, loaded in workerd, and type-checked by tsc.
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchEngine, selectedEngines } from '../browser/engines/index.mjs';
import { listen, notFound, serveFile } from '../browser/http.ts';
import { startWorkerd } from '../edge/workerd.ts';
import { packAndInstall, ROOT, run, type InstalledProject } from './project.ts';

const CONSUMER = join(ROOT, 'tests', 'package', 'consumer');
/** The wasm modules the package ships: the parser's and the lazy index's, each SIMD128 and scalar. */
const WASM = ['sluice.simd.wasm', 'sluice.scalar.wasm', 'sluice-lazy.simd.wasm', 'sluice-lazy.scalar.wasm'];
let project: InstalledProject;
let installed: string;

beforeAll(() => {
  project = packAndInstall();
  installed = join(project.dir, 'node_modules', 'sluice');
  for (const file of ['node.mjs', 'browser.js', 'worker.js', 'edge_worker.js', 'types.ts', 'index.html']) {
    copyFileSync(join(CONSUMER, file), join(project.dir, file));
  }
});

afterAll(() => {
  if (project) rmSync(project.dir, { recursive: true, force: true });
});

describe('the tarball', () => {
  test("holds both builds of each module (the command line's too), their loaders, the declarations, README, LICENSE", () => {
    for (const file of [
      ...WASM.map((name) => `dist/${name}`),
      'dist/sluice-cli.simd.wasm',
      'dist/sluice-cli.scalar.wasm',
      'dist/native/native_module.js',
      'dist/lazy/native_lazy.js',
      'dist/index.js',
      'dist/index.d.ts',
      'package.json',
      'README.md',
      'LICENSE',
    ]) {
      expect(project.files, file).toContain(file);
    }
  });

  test('no V8 code cache (valid for one Node build only: the bin writes its own on first run)', () => {
    expect(project.files.filter((file) => /\.cache$|sluice_bundle\.cache/.test(file))).toEqual([]);
  });

  test('the CommonJS entry and the edge entry, each with its declarations', () => {
    for (const file of ['dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/package.json', 'dist/edge.js']) {
      expect(project.files, file).toContain(file);
    }
  });

  test('every relative import of every shipped module and declaration is shipped too', () => {
    const shipped = new Set(project.files);
    const missing: string[] = [];
    for (const file of project.files.filter((name) => /\.(m?js|d\.m?ts)$/.test(name))) {
      const text = readFileSync(join(installed, file), 'utf8');
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        // `./x.wasm?module` (dist/edge.js) names the file ./x.wasm.
        const target = posix.normalize(posix.join(posix.dirname(file), match[1]!.replace(/\?.*$/, '')));
        const candidates = [target, target.replace(/\.js$/, '.d.ts'), target.replace(/\.mjs$/, '.d.mts')];
        if (!candidates.some((candidate) => shipped.has(candidate))) missing.push(`${file} -> ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('the exports map points at shipped files', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    const targets: string[] = [];
    const walk = (value: unknown) => {
      if (typeof value === 'string') targets.push(value.replace(/^\.\//, ''));
      else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(manifest.exports);
    for (const target of targets) expect(project.files, target).toContain(target);
  });
});

test('the `sluice` bin: one CommonJS file that finds its wasm next to the package', () => {
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  expect(project.files).toContain(manifest.bin.sluice.replace(/^\.\//, ''));
  writeFileSync(join(project.dir, 'doc.json'), '{"rows": [{"id": 1}, {"id": 2, "t": "\u00e9"}]}');
  const bin = join(project.dir, 'node_modules', '.bin', 'sluice');
  for (const build of ['simd', 'scalar', '']) {
    const out = execFileSync(bin, ['select', '$.rows[*]', 'doc.json'], {
      cwd: project.dir,
      encoding: 'utf8',
      env: { ...process.env, SLUICE_WASM: build },
    });
    expect(out, build).toBe('{"id":1}\n{"id":2,"t":"é"}\n');
  }
});

test('Node ESM: import from "sluice", the default loader, every entry point', () => {
  const output = JSON.parse(run(process.execPath, ['node.mjs'], project.dir));
  expect(output).toEqual({
    elements: [{ id: 1 }, { id: 2, t: 'é😀' }],
    texts: ['1', '[2]', '"x"'],
    piped: [true, null],
    beforeError: [1],
    error: { isSyntax: true, code: 'EXPECTED_VALUE', offset: 3 },
    lazy: 'c',
    classes: ['function', 'function'],
    wasm: WASM.map((name) => `dist/${name}`),
    version: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
  });
});

describe("bundles (esbuild, the package's sideEffects: false)", () => {
  async function bundled(source: string, outfile?: string): Promise<string> {
    const result = await build({
      stdin: { contents: source, resolveDir: project.dir, loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: outfile !== undefined,
      outfile,
      logLevel: 'error',
    });
    return outfile === undefined ? result.outputFiles![0]!.text : readFileSync(outfile, 'utf8');
  }

  test('without lazyParse: nothing of the lazy index, not even its file names', async () => {
    const text = await bundled("export { parseJsonArray, init } from 'sluice';");
    expect(text).toContain('sluice.simd.wasm');
    expect(text).not.toMatch(/sluice-lazy|lazy_index/);
  });

  test('with lazyParse: its module is loaded by init() from where the bundle points', async () => {
    // The loaders' `new URL('./sluice-lazy.simd.wasm', import.meta.url)`: the .wasm copied beside the bundle.
    const out = join(project.dir, 'lazy-bundle');
    const source =
      "import { init, lazyParse } from 'sluice';\nawait init();\n" +
      'console.log(JSON.stringify(lazyParse(\'[0,{"k":[5]}]\')[1].k));';
    const text = await bundled(source, join(out, 'js', 'app.mjs'));
    expect(text).toContain('sluice-lazy.simd.wasm');
    for (const file of WASM) copyFileSync(join(installed, 'dist', file), join(out, 'js', file));
    expect(JSON.parse(run(process.execPath, [join(out, 'js', 'app.mjs')], out))).toEqual([5]);
  });
});

test.each(selectedEngines())(
  'browser: an esbuild bundle runs in %s and loads the SIMD build next to it',
  async (name) => {
    const out = join(project.dir, `www-${name}`);
    await build({
      entryPoints: [join(project.dir, 'browser.js')],
      outfile: join(out, 'app.js'),
      bundle: true,
      format: 'esm',
      platform: 'browser',
      logLevel: 'error',
    });
    for (const file of WASM) copyFileSync(join(installed, 'dist', file), join(out, file));
    // The consumer's page, with the error collector the engine drivers read (tests/browser/page/errors.js) first.
    copyFileSync(join(ROOT, 'tests', 'browser', 'page', 'errors.js'), join(out, 'errors.js'));
    const html = readFileSync(join(project.dir, 'index.html'), 'utf8');
    writeFileSync(join(out, 'index.html'), html.replace('<script', '<script src="./errors.js"></script>\n<script'));
    writeFileSync(join(out, 'data.json'), JSON.stringify({ items: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] }));
    const bundle = readFileSync(join(out, 'app.js'), 'utf8');
    // Nothing a browser or a strict CSP refuses.
    expect(bundle).not.toMatch(/\bnew Function\(|\beval\(|require\(["']/);

    const requested: string[] = [];
    const server = await listen((_req, res, url) => {
      requested.push(url.pathname);
      if (url.pathname === '/favicon.ico') res.writeHead(204).end();
      else if (!serveFile(res, out, url.pathname.slice(1) || 'index.html')) notFound(res);
    });
    const engine = await launchEngine(name).catch(async (error: unknown) => {
      await server.close();
      throw error;
    });
    try {
      const page = await engine.open(`${server.origin}/`);
      await page.waitFor('window.result !== undefined');
      expect(await page.evaluate('window.result')).toEqual({ ids: ['a', 'b', 'c'] });
      expect(requested).toContain('/sluice.simd.wasm');
      // parseJsonArray alone: neither the other build nor the lazy index's module.
      expect(requested.filter((path) => path.endsWith('.wasm'))).toEqual(['/sluice.simd.wasm']);
      expect(await page.errors()).toEqual([]);
    } finally {
      await engine.close();
      await server.close();
    }
  },
);

test('workerd: a worker importing the package and both .wasm modules', async () => {
  const worker = await startWorkerd({
    entry: join(project.dir, 'worker.js'),
    wasm: ['sluice.simd.wasm', 'sluice-lazy.simd.wasm'].map((name) => ({
      name: `sluice/${name}`,
      file: join(installed, 'dist', name),
    })),
  });
  try {
    const response = await fetch(worker.origin, { method: 'POST', body: '[1, {"a" : [true]}, "é"]' });
    expect(response.status, worker.output()).toBe(200);
    expect(await response.json()).toEqual({ values: ['1', '{"a" : [true]}', '"é"'], lazy: [true] });
  } finally {
    await worker.stop();
  }
});

test("workerd: a worker importing only 'sluice' (the workerd entry imports its .wasm)", async () => {
  const worker = await startWorkerd({ entry: join(project.dir, 'edge_worker.js'), wasm: [] });
  try {
    const response = await fetch(worker.origin, { method: 'POST', body: '[1, {"a" : [true]}, "é"]' });
    expect(response.status, worker.output()).toBe(200);
    expect(await response.json()).toEqual({ values: ['1', '{"a" : [true]}', '"é"'], lazy: [true] });
  } finally {
    await worker.stop();
  }
});

describe('tsc on a consumer file, against the installed declarations', () => {
  test.each(['NodeNext', 'Bundler'])('moduleResolution %s', (resolution) => {
    const config = join(project.dir, `tsconfig.${resolution}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: resolution === 'Bundler' ? 'ESNext' : 'NodeNext',
          moduleResolution: resolution,
          lib: ['ES2022', 'DOM', 'DOM.Iterable', 'DOM.AsyncIterable'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['types.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    let output = '';
    try {
      run(process.execPath, [tsc, '-p', config], dirname(config));
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  });
});

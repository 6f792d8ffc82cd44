// Next.js `next build --webpack` server bundles: the loader's `new URL('./sluice.simd.wasm', import.meta.url)`
// becomes the asset's public path (`/_next/static/media/sluice.simd.<hash>.wasm`), and webpack replaces every other
// `import.meta.url` with the loader's source file, in node_modules, at build time. init() must then find the
// package's own .wasm by its name without the hash. In a fresh process, the loader in <app>/node_modules/sluice/dist.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, inject, test } from 'vitest';

const build = inject('sluiceBuild');
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const app = mkdtempSync(join(tmpdir(), 'sluice-webpack-server-'));
afterAll(() => rmSync(app, { recursive: true, force: true }));

test("a hashed public path with no such file: the package's .wasm of that name", () => {
  const dist = join(app, 'node_modules', 'sluice', 'dist');
  cpSync(DIST, dist, { recursive: true });
  const script = `
    const sluice = await import(${JSON.stringify(join(dist, 'index.js'))});
    const internal = await import(${JSON.stringify(join(dist, 'internal.js'))});
    const describe = (error) => [error.constructor.name, error.message];
    await sluice.init('/_next/static/media/sluice.${build}.6002eca2.wasm');
    const results = [[internal.loadedBuildKind(), sluice.createParser({ path: '$[*]' }).push('[1,2]')]];
    results.push(await sluice.init('/_next/static/media/other.6002eca2.wasm').then(() => 'loaded', describe));
    console.log(JSON.stringify(results));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' });
  expect(JSON.parse(output)).toEqual([
    [build === 'simd' ? 'simd128' : 'scalar', [1, 2]],
    ['SluiceLoadError', expect.stringMatching(/no file \/_next\/static\/media\/other\.6002eca2\.wasm under file:/)],
  ]);
});

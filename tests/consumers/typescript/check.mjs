// The package's declarations under every module setting users have: tsc on usage.ts (this package is CommonJS), and
// on its ES module (.mts) and CommonJS (.cts) copies, made here from it. node16 in a CommonJS file was TS1479 (ES module declarations
// required from CommonJS) before the package had CommonJS declarations (dist/cjs/).
import { execFileSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const base = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM', 'DOM.Iterable', 'DOM.AsyncIterable'],
  types: ['node'],
  strict: true,
  noEmit: true,
  skipLibCheck: false,
};
const configs = {
  bundler: { compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' }, files: ['usage.ts'] },
  'bundler-workerd': {
    compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', customConditions: ['workerd'] },
    files: ['usage.ts'],
  },
  'node16-esm': { compilerOptions: { module: 'Node16', moduleResolution: 'Node16' }, files: ['usage.mts'] },
  'node16-cjs': { compilerOptions: { module: 'Node16', moduleResolution: 'Node16' }, files: ['usage.ts', 'usage.cts'] },
  nodenext: {
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' },
    files: ['usage.mts', 'usage.cts'],
  },
  commonjs: { compilerOptions: { module: 'CommonJS', moduleResolution: 'Node10' }, files: ['usage.ts'] },
};
for (const copy of ['usage.mts', 'usage.cts']) copyFileSync('usage.ts', copy);
const failed = [];
for (const [name, config] of Object.entries(configs)) {
  const file = `tsconfig.${name}.json`;
  writeFileSync(file, JSON.stringify({ compilerOptions: { ...base, ...config.compilerOptions }, files: config.files }));
  try {
    execFileSync(process.execPath, [tsc, '-p', file], { encoding: 'utf8', stdio: 'pipe' });
    console.log(`tsc ${name}: ok`);
  } catch (error) {
    failed.push(name);
    console.log(`tsc ${name}: FAILED\n${error.stdout}${error.stderr}`);
  }
}
if (failed.length > 0) {
  console.error(`typescript: ${failed.join(', ')} failed`);
  process.exit(1);
}

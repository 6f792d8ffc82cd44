#!/usr/bin/env node
// The consumer matrix: the packed package installed into a fresh project per tool, as a user's `npm install sluice`
// would, then built and checked. Usage:
//
//   node tests/consumers/run.mjs [--tarball <file.tgz>] [--keep] [--list] [project ...]
//
// Packs the repository once (`npm pack`: exactly what `npm publish` uploads; dist/ must be built), then for each
// project, tests/consumers/<name>/ (every folder with a package.json, or the ones named):
//   1. copies it to a temporary directory (without node_modules),
//   2. `npm ci` when it has a package-lock.json (the tools' pinned versions), `npm install` when it has
//      dependencies but no lock,
//   3. installs the tarball with `npm install --no-save <tarball>` (the lock stays the tools' alone: the tarball's
//      hash changes with every build),
//   4. runs `npm run build` if the project has a build script, then `npm run check` (required).
// A check that cannot run here (a browser or runtime missing) exits 77 after printing why: reported as skipped,
// which fails the run only with SLUICE_CONSUMERS_STRICT=1.
//
// The scripts see SLUICE_ROOT (the repository), SLUICE_TARBALL, SLUICE_CONSUMER (the project's name), and the
// repository's node_modules/.bin after the project's own on PATH (deno, bun, workerd, playwright-core are the
// repository's devDependencies). Each step is limited to SLUICE_CONSUMER_TIMEOUT seconds (600). Shared helpers
// for the checks are in tests/consumers/lib/ (no package.json: never run as a project).
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..', '..');
const SKIP = 77;
const TIMEOUT = Number(process.env.SLUICE_CONSUMER_TIMEOUT ?? 600) * 1000;

const argv = process.argv.slice(2);
let tarball;
let keep = false;
let list = false;
const wanted = [];
for (let i = 0; i < argv.length; ++i) {
  const arg = argv[i];
  if (arg === '--tarball') tarball = argv[++i];
  else if (arg === '--keep') keep = true;
  else if (arg === '--list') list = true;
  else if (arg.startsWith('-')) {
    console.error(`run.mjs: unknown option ${arg}`);
    process.exit(2);
  } else wanted.push(arg.replace(/\/+$/, '').replace(/^tests\/consumers\//, ''));
}

const all = readdirSync(HERE, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(HERE, entry.name, 'package.json')))
  .map((entry) => entry.name)
  .sort();
for (const name of wanted) {
  if (!all.includes(name)) {
    console.error(`run.mjs: no project tests/consumers/${name}/package.json (have: ${all.join(', ')})`);
    process.exit(2);
  }
}
const projects = wanted.length > 0 ? wanted : all;
if (list) {
  console.log(projects.join('\n'));
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'sluice-consumers-'));
// The checks' shared helpers, at the same path relative to each project as in the repository (../lib/).
cpSync(join(HERE, 'lib'), join(work, 'lib'), { recursive: true });
if (tarball === undefined) {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) {
    console.error('run.mjs: dist/ is not built: run `npm run build` first');
    process.exit(2);
  }
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' }),
  );
  tarball = join(work, packed.filename);
  console.log(`packed ${packed.filename}: ${packed.files.length} files, ${(packed.size / 1024).toFixed(0)} kB`);
} else {
  tarball = join(process.cwd(), tarball);
}

/** Runs one step; resolves with its exit code (or 124 on timeout). Output goes to the project's log. */
function step(log, cwd, command, args, env) {
  return new Promise((resolve) => {
    log.push(`$ ${command} ${args.join(' ')}`);
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const collect = (chunk) => log.push(chunk.toString().replace(/\n$/, ''));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => {
      log.push(`run.mjs: timed out after ${TIMEOUT / 1000} s`);
      try {
        process.kill(-child.pid, 'SIGKILL'); // the whole group: servers the check started too
      } catch {}
    }, TIMEOUT);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve(signal ? 124 : code);
    });
  });
}

async function runProject(name) {
  const dir = join(work, name);
  cpSync(join(HERE, name), dir, { recursive: true, filter: (src) => !/[\\/]node_modules$/.test(src) });
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const env = {
    ...process.env,
    SLUICE_ROOT: ROOT,
    SLUICE_TARBALL: tarball,
    SLUICE_CONSUMER: name,
    PATH: [process.env.PATH, join(ROOT, 'node_modules', '.bin')].join(delimiter),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  const log = [];
  const deps = { ...manifest.dependencies, ...manifest.devDependencies };
  const steps = [];
  if (existsSync(join(dir, 'package-lock.json'))) steps.push(['npm', ['ci', '--prefer-offline']]);
  else if (Object.keys(deps).length > 0) steps.push(['npm', ['install', '--prefer-offline']]);
  steps.push(['npm', ['install', '--no-save', '--prefer-offline', tarball]]);
  if (manifest.scripts?.build) steps.push(['npm', ['run', '--silent', 'build']]);
  steps.push(['npm', ['run', '--silent', 'check']]);
  const start = Date.now();
  let code = 0;
  for (const [command, args] of steps) {
    code = await step(log, dir, command, args, env);
    if (code !== 0) break;
  }
  writeFileSync(join(work, `${name}.log`), `${log.join('\n')}\n`);
  return { name, code, seconds: (Date.now() - start) / 1000, log, dir };
}

const results = [];
for (const name of projects) {
  process.stdout.write(`consumer ${name} ... `);
  const result = await runProject(name);
  results.push(result);
  const status = result.code === 0 ? 'ok' : result.code === SKIP ? 'skipped' : `FAILED (exit ${result.code})`;
  console.log(`${status} in ${result.seconds.toFixed(1)} s`);
  if (result.code === SKIP) console.log(`  ${result.log.at(-1)}`);
  if (result.code !== 0 && result.code !== SKIP) {
    console.log(
      result.log
        .join('\n')
        .split('\n')
        .slice(-60)
        .map((line) => `  | ${line}`)
        .join('\n'),
    );
  }
  if (!keep && (result.code === 0 || result.code === SKIP)) rmSync(result.dir, { recursive: true, force: true });
}

const failed = results.filter((r) => r.code !== 0 && r.code !== SKIP);
const skipped = results.filter((r) => r.code === SKIP);
console.log(
  `consumers: ${results.length - failed.length - skipped.length} passed, ${skipped.length} skipped, ` +
    `${failed.length} failed${failed.length ? `: ${failed.map((r) => r.name).join(', ')}` : ''}` +
    (keep || failed.length ? ` (projects and logs in ${work})` : ''),
);
if (!keep && failed.length === 0) rmSync(work, { recursive: true, force: true });
process.exit(failed.length > 0 || (skipped.length > 0 && process.env.SLUICE_CONSUMERS_STRICT === '1') ? 1 : 0);

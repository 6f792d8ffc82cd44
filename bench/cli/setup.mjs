// bench:cli's own setup: jq and gojq from apt when missing, and into build/bench-cli/ the runner (runner.c) and the
// simdjson On-Demand peer (simdjson_select.cpp, on the @nozbe/simdjson sources); npm peers come from bench/.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = fileURLToPath(new URL('./', import.meta.url));
const BUILD = `${ROOT}build/bench-cli/`;
const SIMDJSON = `${ROOT}node_modules/@nozbe/simdjson/src/`;

const has = (command) => versionOf('sh', ['-c', `command -v ${command}`]) !== 'unknown';
const olderThan = (target, ...sources) =>
  !existsSync(target) || sources.some((source) => statSync(source).mtimeMs > statSync(target).mtimeMs);

export function setup(log) {
  const missing = ['jq', 'gojq'].filter((command) => !has(command));
  if (missing.length > 0) {
    log(`bench:cli: installing ${missing.join(' ')} (apt-get)`);
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  mkdirSync(BUILD, { recursive: true });
  const runner = `${BUILD}runner`;
  if (olderThan(runner, `${HERE}runner.c`)) {
    log('bench:cli: building the runner (cc)');
    execFileSync('cc', ['-O2', '-Wall', '-o', runner, `${HERE}runner.c`], { stdio: 'inherit' });
  }
  const simdjson = `${BUILD}simdjson_select`;
  if (olderThan(simdjson, `${HERE}simdjson_select.cpp`, `${SIMDJSON}simdjson.cpp`)) {
    log('bench:cli: building the simdjson peer (c++ -O3, about a minute)');
    execFileSync(
      'c++',
      ['-O3', '-std=c++17', `-I${SIMDJSON}`, '-o', simdjson, `${HERE}simdjson_select.cpp`, `${SIMDJSON}simdjson.cpp`],
      { stdio: 'inherit' },
    );
  }
  return { runner, simdjson };
}

export function versionOf(command, args = ['--version']) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .trim()
      .split('\n')[0];
  } catch {
    return 'unknown';
  }
}

// The native status codes have one home on each side of the boundary, and the two agree: src/sluice/error.h's
// error_code and js/native/status.ts define the same names (upper case in JS) with the same values, both ways;
// STATUS_NAMES names each status; every code becomes the error of that `code` and the class is_limit_error()
// gives it. And no other file of js/ spells a status number under a status name (the five copies there were).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
// @ts-expect-error errorFromStatus is @internal: stripped from the shipped .d.ts, tested all the same.
import { errorFromStatus, JsonLimitError, JsonSyntaxError } from '../../dist/errors.js';
import * as statusModule from '../../dist/native/status.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const header = readFileSync(join(ROOT, 'src/sluice/error.h'), 'utf8');
/** The constants, @internal ones included (stripped from the shipped .d.ts). */
const status = statusModule as unknown as Record<string, unknown> & { STATUS_NAMES: readonly string[] };

function enumOf(text: string): Map<string, number> {
  const body = /enum class error_code : \w+ \{([\s\S]*?)\n\};/.exec(text)?.[1] ?? '';
  const out = new Map<string, number>();
  for (const m of body.matchAll(/^\s*(\w+) = (\d+),/gm)) out.set(m[1]!.toUpperCase(), Number(m[2]));
  return out;
}

const cpp = enumOf(header);
const js = new Map(Object.entries(status).filter((e): e is [string, number] => typeof e[1] === 'number'));

test('src/sluice/error.h and js/native/status.ts define the same codes with the same values', () => {
  expect(cpp.size).toBeGreaterThan(15); // the parse found the enum (so the comparison means something)
  for (const [name, value] of cpp) expect({ name, value: js.get(name) }).toEqual({ name, value });
  for (const [name, value] of js) expect({ name, value: cpp.get(name) }).toEqual({ name, value });
  expect(Number(/error_code_count = (\d+);/.exec(header)?.[1])).toBe(status.STATUS_NAMES.length);
  for (const [name, value] of js) expect({ value, name: status.STATUS_NAMES[value] }).toEqual({ value, name });
});

test("every status becomes the error of its name, in is_limit_error()'s class", () => {
  const body = /is_limit_error\(error_code code\) noexcept \{([^}]*)\}/.exec(header)?.[1] ?? '';
  const limits = new Set([...body.matchAll(/error_code::(\w+)/g)].map((m) => m[1]!.toUpperCase()));
  expect(limits.size).toBe(3);
  const position = { offset: 7, line: 2, column: 3 };
  for (const [name, value] of cpp) {
    if (value === 0) continue;
    const error = errorFromStatus(value, 0x41, position, { maxDepth: 4, maxElementBytes: 9 });
    expect(error).toBeInstanceOf(limits.has(name) ? JsonLimitError : JsonSyntaxError);
    expect({ ...error }).toMatchObject({ code: name, ...position });
  }
  const unknown = errorFromStatus(cpp.size, 0x41, position, { maxDepth: 4, maxElementBytes: 9 });
  expect(unknown.constructor).toBe(Error);
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('no file of js/ but js/native/status.ts defines a status number', () => {
  const names = [...cpp.keys()].join('|');
  const definition = new RegExp(`\\b(?:const|let|var)\\s+(?:${names})\\s*=\\s*\\d`);
  const found = sources(join(ROOT, 'js'))
    .filter((file) => !file.endsWith(join('native', 'status.ts')))
    .filter((file) => definition.test(readFileSync(file, 'utf8')))
    .map((file) => file.slice(ROOT.length));
  expect(found).toEqual([]);
});

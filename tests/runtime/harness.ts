// A runner-neutral way to write a suite once and run it under `deno test`, `bun test` and Vitest: suites register
// cases here, and each runtime's entry file hands them to its own runner. Assertions throw plain Errors, so no
// runner's `expect` is needed, and every failure names what differed.
import { firstDifference } from '../support/deep_equal.mjs';

export interface TestCase {
  readonly name: string;
  readonly run: () => void | Promise<void>;
}

const registered: TestCase[] = [];
let prefix = '';

/** Registers a case; the runtime's entry file runs them in order. */
export function test(name: string, run: () => void | Promise<void>): void {
  registered.push({ name: prefix + name, run });
}

/** Prefixes the names of the cases registered inside `body`. */
export function group(name: string, body: () => void): void {
  const outer = prefix;
  prefix = `${outer}${name}: `;
  try {
    body();
  } finally {
    prefix = outer;
  }
}

export function cases(): readonly TestCase[] {
  return registered;
}

export class AssertionError extends Error {
  override name = 'AssertionError';
}

/** Strict structural equality: key order, prototypes, -0 and Uint8Array contents count. */
export function assertEqual(actual: unknown, expected: unknown, what = 'value'): void {
  const difference = firstDifference(actual, expected);
  if (difference !== null) throw new AssertionError(`${what}: ${difference}`);
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}

type ErrorClass<E> = abstract new (...args: any[]) => E;

/** Returns the error `run` threw, after checking its class; fails when nothing was thrown. */
export function assertThrows<E>(run: () => unknown, errorClass: ErrorClass<E>, what = 'the call'): E {
  try {
    run();
  } catch (error) {
    return checkClass(error, errorClass, what);
  }
  throw new AssertionError(`${what} did not throw (expected ${errorClass.name})`);
}

export async function assertRejects<E>(
  run: () => Promise<unknown>,
  errorClass: ErrorClass<E>,
  what = 'the call',
): Promise<E> {
  try {
    await run();
  } catch (error) {
    return checkClass(error, errorClass, what);
  }
  throw new AssertionError(`${what} did not reject (expected ${errorClass.name})`);
}

function checkClass<E>(error: unknown, errorClass: ErrorClass<E>, what: string): E {
  if (error instanceof errorClass) return error;
  const got = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  throw new AssertionError(`${what} threw ${got}, expected ${errorClass.name}`);
}

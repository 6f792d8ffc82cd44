// Reading an event's data: JSON.parse, and on failure the exact error (code, offset in the data) that the partial
// parser finds, naming the event. Plus the small accessors the formats read provider objects with: a provider
// may omit any field, so nothing is trusted to have its documented type.
import { PartialCore } from '../partial/partial_parser.js';
import { renamed, type ModelState } from './model_state.js';

/** @internal The event's data as JSON (any value), or a JsonSyntaxError naming the event. */
export function parseData(state: ModelState, name: string, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    const prefix = `${state.api}: the data of event ${state.event} (${JSON.stringify(name)}): `;
    const parser = new PartialCore(state.api, undefined);
    try {
      parser.push(data);
      parser.end();
    } catch (error) {
      throw renamed(error, prefix);
    }
    // JSON.parse refused what the parser read (an engine limit): report that as it was.
    return JSON.parse(data);
  }
}

/** @internal A provider object's member as an object, or `undefined`. */
export function obj(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const member = (value as Record<string, unknown>)[key];
  return typeof member === 'object' && member !== null && !Array.isArray(member)
    ? (member as Record<string, unknown>)
    : undefined;
}

/** @internal A provider object's member as an array, or an empty one. */
export function arr(value: unknown, key: string): readonly unknown[] {
  if (typeof value !== 'object' || value === null) return [];
  const member = (value as Record<string, unknown>)[key];
  return Array.isArray(member) ? member : [];
}

/** @internal A provider object's member as a string, or `undefined`. */
export function str(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const member = (value as Record<string, unknown>)[key];
  return typeof member === 'string' ? member : undefined;
}

/** @internal A provider object's member as a number, or `undefined`. */
export function num(value: unknown, key: string): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const member = (value as Record<string, unknown>)[key];
  return typeof member === 'number' ? member : undefined;
}

/** @internal An error object's code: a string or a number, or `undefined`. */
export function codeOf(error: unknown): string | number | undefined {
  return str(error, 'code') ?? num(error, 'code');
}

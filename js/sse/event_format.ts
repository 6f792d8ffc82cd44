// Server-sent events out: sseEvent() (an explicit event and the checks of its fields) and the text of the field
// lines, as the WHATWG HTML "server-sent events" section reads them: `field: value` lines ended by LF, an event
// ended by an empty line. The space after the colon is always written: a reader drops exactly one, so a value that
// starts with a space keeps it.
import { misuse, mustBe, ownProperties } from '../validate.js';

/** The fields of an explicit event, as given to {@link sseEvent}. */
export interface SseEventInit {
  /** The event's type (`event:`), what `addEventListener(type)` listens for; unset: `message`. No CR or LF. */
  readonly event?: string;
  /** The event's id (`id:`), sent back by a reconnecting `EventSource` as `Last-Event-ID`. No CR, LF or NUL. */
  readonly id?: string;
  /** The reconnection delay the client should use, in milliseconds (`retry:`): an integer from 0 to 2^53 - 1. */
  readonly retry?: number;
  /** The data as JSON (`JSON.stringify`'s text, on one line; sources in it are read as the encoder reads them). */
  readonly data?: unknown;
  /** The data as text: one `data:` line per line (CR, LF and CRLF all end a line). Not with `data`. */
  readonly text?: string;
}

const EVENT_FIELDS = ['event', 'id', 'retry', 'data', 'text'] as const;

/** An event made by {@link sseEvent}: checked once, written as it is. */
export class SseEvent {
  /** The field lines before the data (`event:`, `id:`, `retry:`), each ended by LF; may be empty. */
  readonly head: string;
  /** Whether the data is `text` (written as text) or `data` (written as JSON), or there is none. */
  readonly kind: 'json' | 'text' | 'none';
  readonly data: unknown;

  /** @internal Use {@link sseEvent}. */
  constructor(head: string, kind: 'json' | 'text' | 'none', data: unknown) {
    this.head = head;
    this.kind = kind;
    this.data = data;
    Object.freeze(this);
  }
}

const LINE_BREAK = /[\r\n]/;
const LINE_BREAKS = /\r\n|\r|\n/;

/** `field` of sseEvent(): a string without CR or LF (nor NUL for `id`). */
function fieldText(field: 'event' | 'id', value: unknown): string {
  const api = 'sseEvent()';
  if (typeof value !== 'string') throw mustBe(api, `event.${field}`, 'a string', value);
  if (LINE_BREAK.test(value))
    throw misuse(api, `event.${field} must not contain CR or LF, got ${JSON.stringify(value)}`);
  if (field === 'id' && value.includes('\0'))
    throw misuse(api, `event.id must not contain NUL, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * An explicit server-sent event for {@link EventStreamResponse} and {@link stringifyEventStream}: a source's item
 * that is one is written with its fields (`event:`, `id:`, `retry:`) and its data (`data` as JSON, `text` as
 * text; neither: no `data:` line, as for a `retry` alone), whatever the stream's `format`.
 *
 * @example
 * yield sseEvent({ event: 'price', id: String(seq), data: { symbol, price } });
 * yield sseEvent({ text: '[DONE]' });
 *
 * @throws {TypeError} for an unknown field, `event` or `id` not a string or with a CR or LF (`id` with a NUL),
 * `retry` not an integer from 0 to 2^53 - 1, `text` not a string, or both `data` and `text`.
 */
export function sseEvent(init: SseEventInit): SseEvent {
  const api = 'sseEvent()';
  if (typeof init !== 'object' || init === null || Array.isArray(init)) throw mustBe(api, 'event', 'an object', init);
  for (const key of Object.keys(init)) {
    if (!(EVENT_FIELDS as readonly string[]).includes(key)) {
      throw misuse(api, `event.${key} is not a field; the fields are ${EVENT_FIELDS.join(', ')}`);
    }
  }
  const fields = ownProperties(init) as { readonly [K in (typeof EVENT_FIELDS)[number]]?: unknown };
  let head = '';
  if (fields.event !== undefined) head += `event: ${fieldText('event', fields.event)}\n`;
  if (fields.id !== undefined) head += `id: ${fieldText('id', fields.id)}\n`;
  const retry = fields.retry;
  if (retry !== undefined) {
    if (typeof retry !== 'number' || !Number.isSafeInteger(retry) || retry < 0) {
      throw mustBe(api, 'event.retry', 'an integer from 0 to 9007199254740991', retry);
    }
    head += `retry: ${retry}\n`;
  }
  // `data: undefined` is no data, as an option set to undefined is unset.
  const hasData = fields.data !== undefined;
  const text = fields.text;
  if (text !== undefined) {
    if (typeof text !== 'string') throw mustBe(api, 'event.text', 'a string', text);
    if (hasData) throw misuse(api, 'event.data and event.text cannot both be given');
    return new SseEvent(head, 'text', text);
  }
  return hasData ? new SseEvent(head, 'json', fields.data) : new SseEvent(head, 'none', undefined);
}

/** @internal The `data:` lines of `text`, each ended by LF: one per line, CR, LF and CRLF all ending a line. */
export function textLines(text: string): string {
  if (!LINE_BREAK.test(text)) return `data: ${text}\n`;
  const lines = text.split(LINE_BREAKS);
  let out = '';
  for (let i = 0; i < lines.length; i++) out += `data: ${lines[i]}\n`;
  return out;
}

/** @internal A heartbeat: a comment line and the empty line a proxy that buffers by event waits for. */
export const HEARTBEAT = ':\n\n';

// Event streams and the events the WHATWG HTML standard's interpretation dispatches for them, for
// tests/node/sse_parse.test.ts and sse_api.test.ts.
import type { ServerSentEvent } from '../../dist/index.js';

/** An event as dispatched: `event` 'message', `id` '' and `retry` undefined unless given. */
export function ev(data: string, fields: Partial<ServerSentEvent> = {}): ServerSentEvent {
  return { event: 'message', data, id: '', retry: undefined, ...fields };
}

export interface SseCase {
  readonly name: string;
  readonly input: string;
  readonly events: readonly ServerSentEvent[];
}

// The examples of the HTML Living Standard, section 9.2 "Server-sent events" (9.2.1 Introduction and 9.2.6
// Interpreting an event stream), https://html.spec.whatwg.org/multipage/server-sent-events.html, copied as
// written there with the events the standard says they dispatch. WHATWG, licensed CC BY 4.0.
export const SPEC_EXAMPLES: readonly SseCase[] = [
  {
    name: '9.2.1: three messages, one of two lines',
    input:
      'data: This is the first message.\n\ndata: This is the second message, it\ndata: has two lines.\n\n' +
      'data: This is the third message.\n\n',
    events: [
      ev('This is the first message.'),
      ev('This is the second message, it\nhas two lines.'),
      ev('This is the third message.'),
    ],
  },
  {
    name: '9.2.1: two event types, "add" and "remove"',
    input: 'event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\nevent: add\ndata: 113411\n\n',
    events: [ev('73857293', { event: 'add' }), ev('2153', { event: 'remove' }), ev('113411', { event: 'add' })],
  },
  {
    name: '9.2.6: a message of three data lines',
    input: 'data: YHOO\ndata: +2\ndata: 10\n\n',
    events: [ev('YHOO\n+2\n10')],
  },
  {
    // "The first block fires events with the data set to "first event"... the last event ID to "1"; the second
    // resets the last event ID to the empty string; the third's data is " third event" (one space kept)."
    name: '9.2.6: a comment, ids set and reset, a second space kept',
    input: ': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n',
    events: [ev('first event', { id: '1' }), ev('second event', { id: '' }), ev(' third event')],
  },
  {
    name: '9.2.6: empty data lines; the last block has no blank line and is discarded',
    input: 'data\n\ndata\ndata\n\ndata:',
    events: [ev(''), ev('\n')],
  },
  {
    name: '9.2.6: "data:test" and "data: test" are the same',
    input: 'data:test\n\ndata: test\n\n',
    events: [ev('test'), ev('test')],
  },
];

/** One case per rule of the interpretation (the standard's wording in each name). */
export const RULES: readonly SseCase[] = [
  { name: 'a leading BOM is stripped', input: '\uFEFFdata: a\n\n', events: [ev('a')] },
  { name: 'only one leading BOM is stripped', input: '\uFEFF\uFEFFdata: a\n\n', events: [] },
  { name: 'a BOM later is data', input: 'data: \uFEFFa\n\n', events: [ev('\uFEFFa')] },
  { name: 'lines end with CRLF', input: 'data: a\r\ndata: b\r\n\r\n', events: [ev('a\nb')] },
  { name: 'lines end with CR', input: 'data: a\rdata: b\r\r', events: [ev('a\nb')] },
  { name: 'LF CR is two line ends', input: 'data: a\n\rdata: b\n\n', events: [ev('a'), ev('b')] },
  { name: 'mixed line ends', input: 'data: a\r\n\rdata: b\n\r\n', events: [ev('a'), ev('b')] },
  { name: 'a comment is ignored', input: ':x\ndata: a\n: data: b\n\n', events: [ev('a')] },
  { name: 'a comment alone dispatches nothing', input: ': ping\n\n: ping\n\n', events: [] },
  { name: 'a field without colon has an empty value', input: 'data\ndata\n\n', events: [ev('\n')] },
  { name: 'one leading space is removed', input: 'data:   a \n\n', events: [ev('  a ')] },
  { name: 'a tab is not a space', input: 'data:\ta\n\n', events: [ev('\ta')] },
  { name: 'a colon in the value is kept', input: 'data: a: b:c\n\n', events: [ev('a: b:c')] },
  { name: 'field names are case-sensitive', input: 'Data: a\nDATA: b\ndata: c\n\n', events: [ev('c')] },
  { name: 'a space before the colon makes another field', input: 'data : a\ndata: b\n\n', events: [ev('b')] },
  {
    name: 'event sets the type',
    input: 'event: x\ndata: a\n\ndata: b\n\n',
    events: [ev('a', { event: 'x' }), ev('b')],
  },
  { name: 'the last event field wins', input: 'event: x\nevent: y\ndata: a\n\n', events: [ev('a', { event: 'y' })] },
  { name: 'an empty event type is "message"', input: 'event: x\nevent\ndata: a\n\n', events: [ev('a')] },
  {
    name: 'no data: nothing dispatched, and the event type is reset',
    input: 'event: x\n\ndata: a\n\n',
    events: [ev('a')],
  },
  {
    name: 'the last event ID persists across events',
    input: 'id: 7\ndata: a\n\ndata: b\n\nid: 8\n\ndata: c\n\n',
    events: [ev('a', { id: '7' }), ev('b', { id: '7' }), ev('c', { id: '8' })],
  },
  { name: 'an id with NUL is ignored', input: 'id: 1\n\nid: 2\u00003\ndata: a\n\n', events: [ev('a', { id: '1' })] },
  {
    name: 'an empty id resets it',
    input: 'id: 1\ndata: a\n\nid:\ndata: b\n\n',
    events: [ev('a', { id: '1' }), ev('b')],
  },
  {
    name: 'retry with ASCII digits only sets the reconnection time, which persists',
    input: 'retry: 3000\ndata: a\n\nretry: 1x\ndata: b\n\nretry: -1\nretry: 1.5\nretry: ٣\nretry\ndata: c\n\n',
    events: [ev('a', { retry: 3000 }), ev('b', { retry: 3000 }), ev('c', { retry: 3000 })],
  },
  {
    name: 'retry 0 and leading zeros',
    input: 'retry: 007\ndata: a\n\nretry:0\ndata: b\n\n',
    events: [ev('a', { retry: 7 }), ev('b', { retry: 0 })],
  },
  { name: 'unknown fields are ignored', input: 'foo: bar\nx\ndata: a\nlast-event-id: 3\n\n', events: [ev('a')] },
  { name: 'an event without a blank line at the end is discarded', input: 'data: a\n\ndata: b\n', events: [ev('a')] },
  { name: 'a last line without line end is discarded', input: 'data: a\n\ndata: b', events: [ev('a')] },
  { name: 'an empty stream', input: '', events: [] },
  { name: 'blank lines only', input: '\n\r\n\r\n', events: [] },
  {
    name: 'unicode in every field',
    input: 'event: é\nid: 日本\ndata: 😀 ü\n\n',
    events: [ev('😀 ü', { event: 'é', id: '日本' })],
  },
  { name: 'NUL in data is kept', input: 'data: a\u0000b\n\n', events: [ev('a\u0000b')] },
];

// Smoke run of the llm-stream example (run by scripts/test-runtimes.sh): run.mjs serves the worker in workerd
// and the mock provider, holding each stream's last delta until POST /release; the page in Chromium must show
// snapshots while the delta is held, end on the validated itinerary, and show the worker's error event when the
// model breaks the schema. The same worker in Node (run.mjs --runtime node) is read with parseEventStream.
import { join } from 'node:path';
import { parseEventStream } from 'sluice';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium, type Browser } from '../../tests/browser/chromium.ts';
import { ROOT, startServerProcess, type ServerProcess } from '../../tests/runtime/child.ts';
import { applyChanges } from './changes.js';

interface PageState {
  status: string;
  snapshots: number;
  value: unknown;
  final: unknown;
  error?: { name: string; message: string; path: (string | number)[]; offset: number };
  cardsDrawn: number;
  cardsReused: number;
}

const RUN = join(ROOT, 'examples', 'llm-stream', 'run.mjs');
let workerd: ServerProcess;
let node: ServerProcess;
let browser: Browser;

// --exit-after: each run stops by itself even if this process dies before afterAll.
const start = (...args: string[]) =>
  startServerProcess(process.execPath, [RUN, '--port', '0', '--exit-after', '120', ...args], { cwd: ROOT });

beforeAll(async () => {
  [workerd, node, browser] = await Promise.all([
    start('--rate', '2000', '--hold-last'),
    start('--rate', '0', '--runtime', 'node', '--hold-last'),
    launchChromium(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  workerd?.stop();
  node?.stop();
});

const fixture = async (origin: string, prompt: string) =>
  (await fetch(`${origin}/arguments.json?prompt=${encodeURIComponent(prompt)}`)).json();

async function ask(prompt: string) {
  const { page, errors } = await browser.newPage();
  await page.goto(`${workerd.origin}/`);
  await page.fill('#prompt', prompt);
  await page.click('#run');
  const state = () => page.evaluate(() => (window as unknown as { llmStream: PageState }).llmStream);
  return { page, errors, state };
}

test('the page shows snapshots before the provider finished, then the validated itinerary', async () => {
  const prompt = 'Plan 5 days in Japan in spring.';
  const { page, errors, state } = await ask(prompt);
  // The provider holds the last delta: whatever the page shows now came before the provider finished.
  await page.waitForFunction(() => document.querySelectorAll('#days .day').length === 5);
  const early = await state();
  expect(early.status).toBe('streaming');
  expect(early.snapshots).toBeGreaterThan(100);
  expect(await page.locator('#title').textContent()).toBe('Japan in spring: temples, food & trains 🌸');
  const release = await (await fetch(`${workerd.origin}/release`, { method: 'POST' })).json();
  expect(release).toEqual({ released: 1 });

  await page.waitForFunction(() => (window as unknown as { llmStream: PageState }).llmStream.status !== 'streaming');
  const end = await state();
  const expected = await fixture(workerd.origin, prompt);
  expect(end.status, JSON.stringify(end.error)).toBe('done');
  expect(end.final).toEqual(expected);
  expect(end.value).toEqual(expected);
  // Days 1 to 4 kept their cards while later ones were written: the changes kept unchanged days' identity.
  expect(end.cardsReused).toBeGreaterThan(0);
  expect(end.cardsDrawn).toBeLessThan(end.snapshots);
  expect(await page.locator('#days .day').count()).toBe(5);
  expect(await page.locator('#days .day').last().textContent()).toContain(expected.days[4].notes.split('\n')[0]);
  expect(errors).toEqual([]);
});

test('a tool call that breaks the schema ends with the error event, never showing the refused value', async () => {
  const { page, errors, state } = await ask('Plan 3 days with a late-night ramen stop.');
  await page.waitForFunction(() => (window as unknown as { llmStream: PageState }).llmStream.status !== 'streaming');
  const end = await state();
  expect(end.status).toBe('error');
  expect(end.error).toMatchObject({ name: 'JsonSchemaError', path: ['days', 1, 'activities', 3, 'time'] });
  // readModelStream names the call and the event, then the partial parser's words.
  expect(end.error!.message).toMatch(
    /^readModelStream\(\): the arguments of tool call 0 \("create_itinerary"\) at event \d+: \$\.days\[1\]\.activities\[3\]\.time: /,
  );
  expect(end.error!.offset).toBeGreaterThan(0);
  expect(end.final).toBeUndefined();
  // Snapshots came up to the refused string, which never showed whole.
  const days = (end.value as { days: { activities: { time?: string }[] }[] }).days;
  expect(days).toHaveLength(2);
  expect(days[1]!.activities[3]?.time).not.toBe('24:30');
  expect(await page.locator('#error').textContent()).toContain('JsonSchemaError: readModelStream(): the arguments');
  expect(await page.locator('#days .day.bad').textContent()).toContain('Day 2');
  expect(errors).toEqual([]);
});

const held = async (origin: string) => ((await (await fetch(`${origin}/held`)).json()) as { held: number }).held;

async function waitForHeld(origin: string, count: number) {
  // The worker notices a client gone within its 5 s heartbeat at worst.
  for (const deadline = Date.now() + 15_000; (await held(origin)) !== count; ) {
    if (Date.now() > deadline) throw new Error(`${origin}: never ${count} streams held`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

for (const runtime of ['workerd', 'node'] as const) {
  test(`a client that leaves aborts the provider's stream (${runtime})`, async () => {
    const { origin } = runtime === 'workerd' ? workerd : node;
    const client = new AbortController();
    const response = await fetch(`${origin}/itinerary?prompt=2%20days`, { signal: client.signal });
    await response.body!.getReader().read(); // the first snapshot came
    await waitForHeld(origin, 1);
    client.abort();
    // request.signal, or the response's cancel, aborts the worker's fetch: the provider sees its response close.
    await waitForHeld(origin, 0);
  });
}

test('in Node behind the adapter: snapshot events, then done; the changes add up to the arguments', async () => {
  const prompt = 'Plan 4 days in Japan.';
  const response = await fetch(`${node.origin}/itinerary?prompt=${encodeURIComponent(prompt)}`);
  expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const events: { event: string; data: string }[] = [];
  const read = (async () => {
    for await (const event of parseEventStream(response)) events.push(event);
  })();
  await waitForHeld(node.origin, 1);
  expect(events.length).toBeGreaterThan(0);
  expect(await (await fetch(`${node.origin}/release`, { method: 'POST' })).json()).toEqual({ released: 1 });
  await read;
  const kinds = events.map((event) => event.event);
  expect(kinds.at(-1)).toBe('done');
  expect(kinds.slice(0, -1).every((kind) => kind === 'snapshot')).toBe(true);
  let value: unknown;
  let appended = 0;
  for (const event of events.slice(0, -1)) {
    const changes = JSON.parse(event.data) as unknown[][];
    appended += changes.filter((change) => change[2] === 'append').length;
    value = applyChanges(value, changes);
  }
  // Strings being written go out as what they gained.
  expect(appended).toBeGreaterThan(events.length / 4);
  const expected = await fixture(node.origin, prompt);
  expect(value).toEqual(expected);
  expect(JSON.parse(events.at(-1)!.data)).toEqual(expected);
});

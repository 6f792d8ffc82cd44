// readModelStream reads each tool call's arguments delta by delta (one partial parser per call), never the whole
// text again: arguments of 200 kB in 40,000 deltas cost about 10 times what 20 kB in 4,000 deltas cost, not 100
// times (and 40 kB in 40,000 one-character deltas of two calls, 10 times 4 kB in 4,000) (re-parsing the text on every delta, vercel/ai#17113, is quadratic). Also for structured text output
// (text: 'json'). The two sizes alternate in one process (the machine's load falls on both alike); the ratio of
// the medians is compared.
import { expect, test } from 'vitest';
import { readModelStream, type ModelEvent, type ModelStreamOptions } from '../../dist/index.js';

const SMALL = 4_000;
const ROUNDS = 5;
/** Linear is 10; quadratic 100. Room for the machine's noise and the collector's pauses. */
const MAX_RATIO = 25;
const DELTA = 5;

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** An arguments object of `chars` characters: members of every kind. */
function argumentsText(chars: number): string {
  const parts: string[] = [];
  let length = 2;
  for (let i = 0; length < chars; i++) {
    const member = `"k${i}":${i % 3 === 0 ? `"Zürich ${i} 東京"` : i % 3 === 1 ? `[${i},true,null]` : `{"n":${i}.5}`}`;
    parts.push(member);
    length += member.length + 1;
  }
  const text = `{${parts.join(',')}}`;
  return text.padEnd(chars, ' ');
}

type Case = { name: string; options: ModelStreamOptions; events: (deltas: number) => ModelEvent[] };

const CASES: Case[] = [
  {
    name: 'openai-chat tool_calls, two calls interleaved, one character a delta',
    options: { format: 'openai-chat' },
    events(deltas) {
      const texts = [argumentsText(deltas / 2), argumentsText(deltas / 2)];
      const chunk = (index: number, fn: object) => ({
        data: JSON.stringify({
          choices: [{ index: 0, delta: { tool_calls: [{ index, ...fn }] }, finish_reason: null }],
        }),
      });
      const out: ModelEvent[] = [chunk(0, { id: 'a', function: { name: 'f', arguments: '' } })];
      out.push(chunk(1, { id: 'b', function: { name: 'g', arguments: '' } }));
      for (let i = 0; i < texts[0]!.length; i++) {
        for (let k = 0; k < 2; k++) out.push(chunk(k, { function: { arguments: texts[k]![i] } }));
      }
      out.push({ data: '{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}' }, { data: '[DONE]' });
      return out;
    },
  },
  {
    name: 'anthropic input_json_delta',
    options: { format: 'anthropic' },
    events(deltas) {
      const text = argumentsText(deltas * DELTA);
      const out: ModelEvent[] = [
        {
          data: '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}',
        },
      ];
      for (let i = 0; i < text.length; i += DELTA) {
        const delta = { type: 'input_json_delta', partial_json: text.slice(i, i + DELTA) };
        out.push({ data: JSON.stringify({ type: 'content_block_delta', index: 0, delta }) });
      }
      out.push({ data: '{"type":"message_stop"}' });
      return out;
    },
  },
  {
    name: 'openai-responses output_text, text: json',
    options: { format: 'openai-responses', text: 'json' },
    events(deltas) {
      const text = argumentsText(deltas * DELTA);
      const out: ModelEvent[] = [];
      for (let i = 0; i < text.length; i += DELTA) {
        out.push({ data: JSON.stringify({ type: 'response.output_text.delta', delta: text.slice(i, i + DELTA) }) });
      }
      out.push({ data: '{"type":"response.completed"}' });
      return out;
    },
  },
];

async function timed(events: ModelEvent[], options: ModelStreamOptions): Promise<number> {
  const start = cpuMs();
  let last: unknown;
  for await (const s of readModelStream(events, options)) last = s;
  const spent = cpuMs() - start;
  expect(last).toMatchObject({ done: true });
  return spent;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

test.each(CASES)(
  '$name: 10 times the deltas, about 10 times the time',
  async ({ options, events }) => {
    const small = events(SMALL);
    const large = events(SMALL * 10);
    await timed(small, options); // warm-up
    const times: [number[], number[]] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      times[0].push(await timed(small, options));
      times[1].push(await timed(large, options));
    }
    const ratio = median(times[1]) / Math.max(median(times[0]), 0.5);
    console.log(
      `${options.format}: ${SMALL} deltas ${median(times[0]).toFixed(1)} ms, ${SMALL * 10} deltas ${median(times[1]).toFixed(1)} ms, ratio ${ratio.toFixed(1)}`,
    );
    expect(ratio).toBeLessThan(MAX_RATIO);
  },
  120_000,
);

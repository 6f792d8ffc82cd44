// bench:partial's readers of a tool call, its deltas or its SSE body in chunks: `async read(case, schema?)` -> value.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { loadSluice, packageVersion as version } from '../harness/environment.mjs';
import { chunksOf } from '../harness/stats.mjs';

const TOOL = 'report';

// The root's eventsource-parser (4, which sluice's tests use; bench's own is ai's 3).
const ROOT_ESP = createRequire(new URL('../../package.json', import.meta.url)).resolve('eventsource-parser');

/** `count` deltas of `text`, cut at even positions (anywhere: inside escapes, numbers, surrogate pairs). */
export function deltasOf(text, count) {
  const at = (k) => Math.round((k * text.length) / count);
  return Array.from({ length: count }, (_, k) => text.slice(at(k), at(k + 1)));
}

const sse = (objects) => objects.map((o) => `data: ${typeof o === 'string' ? o : JSON.stringify(o)}\n\n`).join('');

/** An OpenAI Chat Completions body (the shape of tests/data/model-streams/openai-chat/*.sse): one tool call. */
export function openAIChatBody(deltas) {
  const chunk = (delta, finish = null) => ({
    id: 'chatcmpl-AxR7t2',
    object: 'chat.completion.chunk',
    created: 1764950000,
    model: 'gpt-4.1-2025-04-14',
    system_fingerprint: 'fp_8f0b8b2a4e',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
  });
  const first = { index: 0, id: 'call_Vq2zQ1', type: 'function', function: { name: TOOL, arguments: '' } };
  return sse([
    chunk({ role: 'assistant', content: null, refusal: null, tool_calls: [first] }),
    ...deltas.map((d) => chunk({ tool_calls: [{ index: 0, function: { arguments: d } }] })),
    chunk({}, 'tool_calls'),
    '[DONE]',
  ]);
}

const reader = (label, read) => ({ label, read });
const argumentsOf = (data) => JSON.parse(data).choices[0]?.delta?.tool_calls?.[0]?.function?.arguments;

/** The readers, in the table's order. */
export const MODEL_READERS = {
  /** The baseline: createPartialParser fed the deltas, no SSE, no events. */
  async partial() {
    const { createPartialParser } = await loadSluice();
    return reader('sluice createPartialParser, the deltas alone', ({ deltas }, schema) => {
      const parser = createPartialParser(schema ? { schema } : {});
      let shown;
      for (const delta of deltas) shown = parser.push(delta);
      return shown === undefined ? undefined : parser.end();
    });
  },
  async model() {
    const { readModelStream } = await loadSluice();
    return reader("sluice readModelStream(body, { format: 'openai-chat' })", async ({ chunks }) => {
      let shown;
      for await (const s of readModelStream(chunksOf(chunks), { format: 'openai-chat' }))
        shown = s.toolCalls[0]?.arguments;
      return shown;
    });
  },
  async floor() {
    const { parseEventStream } = await loadSluice();
    return reader('sluice parseEventStream + JSON.parse of each event, no snapshots', async ({ chunks }) => {
      let args = '';
      for await (const { data } of parseEventStream(chunksOf(chunks)))
        if (data !== '[DONE]') args += argumentsOf(data) ?? '';
      return JSON.parse(args);
    });
  },
  async jsonriver() {
    const { createParser } = await import(pathToFileURL(ROOT_ESP).href);
    const { parse } = await import('jsonriver');
    async function* deltas(chunks) {
      const pending = [];
      const parser = createParser({
        onEvent: ({ data }) => {
          const args = data === '[DONE]' ? undefined : argumentsOf(data);
          if (args) pending.push(args);
        },
      });
      const decoder = new TextDecoder();
      for (const chunk of chunks) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        for (const delta of pending) yield delta;
        pending.length = 0;
      }
    }
    const label = `eventsource-parser ${version('../../node_modules/eventsource-parser')} + jsonriver ${version('jsonriver')}`;
    return reader(label, async ({ chunks }) => {
      let shown;
      for await (const value of parse(deltas(chunks))) shown = value;
      return shown;
    });
  },
  /** `ai`'s streamText with the tool on @ai-sdk/openai's model over a mocked `fetch`, read as useChat reads it. */
  async ai() {
    const { jsonSchema, readUIMessageStream, streamText, tool } = await import('ai');
    const { createOpenAI } = await import('@ai-sdk/openai');
    const label = `ai ${version('ai')} streamText + readUIMessageStream (@ai-sdk/openai ${version('@ai-sdk/openai')})`;
    return reader(label, async ({ chunks }) => {
      const start = (controller) => {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      };
      const headers = { 'content-type': 'text/event-stream' };
      const fetch = async () => new Response(new ReadableStream({ start }), { headers });
      const model = createOpenAI({ apiKey: 'offline', fetch }).chat('gpt-4.1');
      const tools = { [TOOL]: tool({ inputSchema: jsonSchema({ type: 'object' }) }) };
      const result = streamText({ model, prompt: 'Write the report.', tools });
      let shown;
      for await (const message of readUIMessageStream({ stream: result.toUIMessageStream() })) {
        const part = message.parts.find((p) => p.type === `tool-${TOOL}`);
        if (part) shown = part.input;
      }
      return shown;
    });
  },
};

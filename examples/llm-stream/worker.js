// The llm-stream worker: GET /itinerary?prompt=... calls the provider (PROVIDER_URL, OpenAI Chat Completions,
// streamed) with the create_itinerary tool, and answers server-sent events as the arguments arrive:
//   event: snapshot  the arguments so far, as the changes since the previous snapshot (changes.js)
//   event: done      the schema's validated value, once the provider finished
//   event: error     { name, message, path, offset }: a schema violation, a provider error, a truncated stream
// Every other path goes to env.ASSETS (the page), as Workers static assets do. A standard fetch handler: workerd
// and Cloudflare Workers run it as it is; run.mjs runs it in workerd, or in Node behind a small adapter.
import { EventStreamResponse, readModelStream, sseEvent } from 'sluice';
import { changes } from './changes.js';
import { createItinerary, Itinerary } from './schema.js';

/**
 * The arguments of tool call 0 (the request forces create_itinerary), checked by the zod schema as they stream
 * (readModelStream's `tools`: each value when it closes; a violation stops the stream before any snapshot shows
 * it), as snapshot events, then the validated value.
 */
async function* itinerary(upstream) {
  const options = { format: 'openai-chat', tools: { create_itinerary: Itinerary } };
  let sent;
  let final;
  for await (const snapshot of readModelStream(upstream, options)) {
    const call = snapshot.toolCalls[0];
    if (call?.arguments === undefined || call.arguments === sent) continue;
    // Once complete, the arguments are zod's output (new objects, equal where nothing changed): the changes hold
    // only what the last delta said.
    const diff = changes(sent, call.arguments);
    if (diff.length > 0) yield sseEvent({ event: 'snapshot', data: diff });
    sent = call.arguments;
    if (call.complete) final = call.arguments;
  }
  if (final === undefined) throw new TypeError('itinerary: the model made no create_itinerary call');
  yield sseEvent({ event: 'done', data: final });
}

// A client that left is noticed when a write fails, at the latest this heartbeat's (workerd does not always abort
// request.signal when the client disconnects).
const HEARTBEAT_MS = 5000;

/**
 * The snapshots as a stream whose cancel() aborts the provider's stream: closing the generator itself cannot stop
 * it, since it waits on the provider's next delta and a generator's return() waits for that await to end.
 */
function abortable(snapshots, upstreamAbort) {
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await snapshots.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      upstreamAbort.abort(reason);
    },
  });
}

/** The last event when the stream fails: what the page shows (the stream then ends normally). */
function errorEvent(error) {
  console.log(`itinerary: ${error}`);
  const { name, message, path, offset } = error;
  return sseEvent({ event: 'error', data: { name, message, path, offset } });
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname !== '/itinerary') {
      return env.ASSETS ? env.ASSETS.fetch(request) : new Response('not found', { status: 404 });
    }
    const prompt = url.searchParams.get('prompt') || 'Plan 5 days in Japan in spring.';
    const upstreamAbort = new AbortController();
    const upstream = await fetch(env.PROVIDER_URL, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(env.PROVIDER_KEY ? { authorization: `Bearer ${env.PROVIDER_KEY}` } : {}),
      },
      body: JSON.stringify({
        model: env.MODEL ?? 'gpt-4.1-mini',
        stream: true,
        messages: [{ role: 'user', content: prompt }],
        tools: [createItinerary],
        tool_choice: { type: 'function', function: { name: 'create_itinerary' } },
      }),
      signal: AbortSignal.any([request.signal, upstreamAbort.signal]),
    });
    if (!upstream.ok) return new Response(`provider: ${upstream.status} ${await upstream.text()}`, { status: 502 });
    return new EventStreamResponse(abortable(itinerary(upstream), upstreamAbort), undefined, {
      errorEvent,
      heartbeatMs: HEARTBEAT_MS,
    });
  },
};

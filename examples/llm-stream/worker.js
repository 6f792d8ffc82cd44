// The llm-stream worker: GET /itinerary?prompt=... calls the provider (PROVIDER_URL, OpenAI Chat Completions,
// streamed) with the create_itinerary tool, and answers server-sent events as the arguments arrive:
//   event: snapshot  the arguments so far, as the changes since the previous snapshot (changes.js)
//   event: done      the schema's validated value, once the provider finished
//   event: error     { name, message, path, offset }: a schema violation, a provider error, a truncated stream
// Every other path goes to env.ASSETS (the page), as Workers static assets do. A standard fetch handler: workerd
// and Cloudflare Workers run it as it is; run.mjs runs it in workerd, or in Node behind a small adapter.
import { createPartialParser, EventStreamResponse, parseEventStream, readModelStream, sseEvent } from 'sluice';
import { changes } from './changes.js';
import { createItinerary, Itinerary } from './schema.js';

/**
 * The provider's events, unchanged, after the arguments of tool call 0 (the request forces create_itinerary)
 * went through `checker`: a schema violation throws here, before readModelStream sees the delta holding it, so
 * no snapshot ever shows a value the schema refuses. (readModelStream has no schema option: this is its stand-in.)
 */
async function* checked(events, checker) {
  for await (const event of events) {
    let chunk;
    try {
      chunk = event.data === '[DONE]' ? undefined : JSON.parse(event.data);
    } catch {
      // Not JSON: readModelStream reports it, naming the event.
    }
    for (const call of chunk?.choices?.[0]?.delta?.tool_calls ?? []) {
      if (call.index === 0 && typeof call.function?.arguments === 'string') checker.push(call.function.arguments);
    }
    yield event;
  }
}

async function* itinerary(upstream) {
  const checker = createPartialParser({ schema: Itinerary });
  let sent;
  const events = checked(parseEventStream(upstream), checker);
  for await (const snapshot of readModelStream(events, { format: 'openai-chat' })) {
    const args = snapshot.toolCalls[0]?.arguments;
    if (args === undefined || args === sent) continue;
    yield sseEvent({ event: 'snapshot', data: changes(sent, args) });
    sent = args;
  }
  // Checked already, value by value; end() runs zod's own parse too (its output: transforms, defaults).
  yield sseEvent({ event: 'done', data: checker.end() });
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

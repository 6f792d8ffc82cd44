// The text deltas of a streamed tool call: server-sent events read from a fetch() body, each event's JSON chunk
// holding the next piece of the call's arguments (the OpenAI-style chat completion format).

/** Yields the `data:` payload of each server-sent event until `[DONE]`. */
export async function* sseData(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const line of event.split('\n')) {
          if (!line.startsWith('data: ')) continue;
          const data = line.slice(6);
          if (data === '[DONE]') return;
          yield data;
        }
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** The argument deltas of the first tool call in a streamed chat completion. */
export async function* toolCallArguments(body) {
  for await (const data of sseData(body)) {
    const delta = JSON.parse(data).choices[0]?.delta?.tool_calls?.[0]?.function?.arguments;
    if (delta) yield delta;
  }
}

// The worker as Cloudflare's "Stream large JSON" example writes it, with @streamparser/json-whatwg.
import { JSONParser } from '@streamparser/json-whatwg';
import { reshape, toNdjson } from './reshape.js';

async function* values(stream) {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value.value;
  }
}

export default {
  async fetch(_request, env) {
    const upstream = await env.UPSTREAM.fetch('http://upstream/data.json');
    const parsed = upstream.body.pipeThrough(new JSONParser({ paths: ['$.*'], keepStack: false }));
    return toNdjson(values(parsed), reshape);
  },
};

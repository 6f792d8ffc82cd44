// The worker as Cloudflare's "Stream large JSON" example writes it, with @streamparser/json-whatwg.
import { JSONParser } from '@streamparser/json-whatwg';
import { toNdjson, upstreamWorker } from './reshape.js';

async function* values(stream) {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value.value;
  }
}

export default upstreamWorker((body) =>
  toNdjson(values(body.pipeThrough(new JSONParser({ paths: ['$.*'], keepStack: false })))),
);

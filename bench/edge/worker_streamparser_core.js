// @streamparser/json 0.0.26, the core package (json-whatwg 0.0.22 pins the quadratic 0.0.22), fed the chunks.
import { JSONParser } from '@streamparser/json';
import { toNdjson, upstreamWorker } from './reshape.js';

async function* values(stream) {
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  let ready = [];
  parser.onValue = ({ value }) => {
    ready.push(value);
  };
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.write(value);
    const batch = ready;
    ready = [];
    yield* batch;
  }
  if (!parser.isEnded) parser.end(); // it ends by itself after the root array
  yield* ready;
}

export default upstreamWorker((body) => toNdjson(values(body)));

// The upstream's array reshaped to NDJSON with sluice: the elements as values, each reshaped and written as a line.
import { parseJsonArray } from 'sluice';
import { toNdjson, upstreamWorker } from './reshape.js';

export default upstreamWorker((body) => toNdjson(parseJsonArray(body, { path: '$[*]' })));

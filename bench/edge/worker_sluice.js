// The upstream's array reshaped to NDJSON with sluice: the elements as values, each reshaped and written as a line.
import { parseJsonArray } from 'sluice';
import { reshape, toNdjson } from './reshape.js';

export default {
  async fetch(_request, env) {
    const upstream = await env.UPSTREAM.fetch('http://upstream/data.json');
    return toNdjson(parseJsonArray(upstream.body, { path: '$[*]' }), reshape);
  },
};

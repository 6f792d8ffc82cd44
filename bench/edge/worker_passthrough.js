// The baseline: the upstream's bytes passed through untouched, workerd's own cost of streaming them (no JSON work).
import { upstreamWorker } from './reshape.js';

export default upstreamWorker((body) => new Response(body, { headers: { 'content-type': 'application/json' } }));

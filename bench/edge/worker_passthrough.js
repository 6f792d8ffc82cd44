// The baseline: the upstream's bytes passed through untouched, workerd's own cost of streaming them (no JSON work).
export default {
  async fetch(_request, env) {
    const upstream = await env.UPSTREAM.fetch('http://upstream/data.json');
    return new Response(upstream.body, { headers: { 'content-type': 'application/json' } });
  },
};

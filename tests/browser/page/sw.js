// A module Service Worker that answers /page/sw-rows with a StreamedJsonResponse built in the worker. Halfway, its
// generator waits on the test server's /gate, which opens once the page reports it holds bytes of this response.
// The event stream routes (/page/sw-sse*) are in sse_routes.js.
import { StreamedJsonResponse } from '/dist/index.js';
import { rows } from './rows.js';
import './sse_routes.js';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.pathname !== '/page/sw-rows') return;
  const count = Number(url.searchParams.get('count'));
  const id = url.searchParams.get('id');
  const gate = async () => {
    await (await fetch(`/gate?id=${id}`)).text();
  };
  event.respondWith(new StreamedJsonResponse({ _embedded: { articles: rows(count, gate) }, total: count }));
});

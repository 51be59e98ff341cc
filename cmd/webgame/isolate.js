// The isolation worker, added to the page by webgame --isolate.
//
// A page is cross-origin isolated (and so gets performance.now() at its
// finest resolution) only when its responses carry the COOP and COEP
// headers, and many static hosts let a game set no headers. This worker
// sits between the page and the host: it passes every request on and
// hands back the host's response with the two headers added. The page
// registers it and reloads once, as a page is isolated only from its
// first response on.
"use strict";

// Take over at once, not at the next visit.
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
	const request = event.request;
	// A request the browser may answer only from its cache, for another
	// origin, cannot be fetched from a worker: leave it to the browser.
	if (request.cache === "only-if-cached" && request.mode !== "same-origin") {
		return;
	}
	event.respondWith(fetch(request).then((response) => {
		// An opaque response (a no-cors request to another origin) has
		// no headers to add to and no body to copy.
		if (response.status === 0) {
			return response;
		}
		const headers = new Headers(response.headers);
		headers.set("Cross-Origin-Opener-Policy", "same-origin");
		headers.set("Cross-Origin-Embedder-Policy", "require-corp");
		return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
	}));
});

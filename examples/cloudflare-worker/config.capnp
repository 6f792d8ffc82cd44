# workerd's own config, to run the worker offline after `node build.mjs`:
#   npx workerd serve config.capnp            (listens on 127.0.0.1:8787)
#   npx workerd serve config.capnp --socket-addr http=127.0.0.1:9000
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # fetch() may reach this machine too, so /reshape can read a local upstream.
    (name = "outbound", network = (allow = ["public", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "build/worker.js"),
    (name = "sluice-lazy.simd.wasm", wasm = embed "build/sluice-lazy.simd.wasm"),
  ],
  compatibilityDate = "2025-09-01",
  bindings = [(name = "UPSTREAM_URL", text = "http://127.0.0.1:8788/articles.json")],
  globalOutbound = "outbound",
);

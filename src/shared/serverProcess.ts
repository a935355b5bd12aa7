/**
 * How the language server's process is started, shared by the extension (which forks it) and the
 * test client and benches (which spawn it the same way, so that what they measure is what users
 * run).
 *
 * `--max-semi-space-size=2` caps V8's young generation at 2 MB per semi-space (Node 20's default
 * grows it to 16 MB). The server allocates steadily in small pieces (every skill's pair scan,
 * every diagnostics message); with the default it was ready at 2,817 skills holding 511-554 MB,
 * with 1, 2 or 4 MB 421-429 MB, edit latency unchanged (bench/lsp.ts; README "Performance").
 */
export const SERVER_NODE_ARGS: readonly string[] = ['--max-semi-space-size=2'];

/**
 * Environment added to the server's. `MALLOC_ARENA_MAX=2`: glibc gives each thread that allocates
 * (the encoder's worker, onnxruntime's and libuv's pools) its own arena of up to 64 MB, and
 * freed memory in one arena is not reused by another; two arenas held the ready server 15-19 MB
 * lower in the same runs, edit latency unchanged. Other C libraries ignore it.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/**
 * Preloaded into a server (`node --import <this file>`): writes one line to stderr for every
 * WebAssembly module compiled or instantiated, with the first frames of its caller. Prisma's
 * query compiler is such a module (~50 MB once loaded): a test reads these lines to know
 * whether, and by what, it was loaded.
 */
const wasm = globalThis.WebAssembly;
const report = (what) => {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const frames = stack.split('\n').slice(2, 24).map((line) => line.trim());
  process.stderr.write(`[wasm] ${what} ${frames.join(' | ')}\n`);
};
wasm.Module = new Proxy(wasm.Module, { construct: (target, args) => (report('Module'), Reflect.construct(target, args)) });
wasm.Instance = new Proxy(wasm.Instance, { construct: (target, args) => (report('Instance'), Reflect.construct(target, args)) });
for (const name of ['compile', 'instantiate', 'compileStreaming', 'instantiateStreaming']) {
  const original = wasm[name];
  if (typeof original === 'function') wasm[name] = (...args) => (report(name), original.apply(wasm, args));
}

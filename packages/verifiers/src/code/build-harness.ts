import type { CodeTest } from './code-test.js';

export const NONCE_LENGTH = 32;

/** The lines the harness writes on fd 3, each prefixed with the nonce and a space. */
export type HarnessLine =
  | { kind: 'start'; total: number }
  | { kind: 'pass'; index: number }
  | { kind: 'fail'; index: number; code: string; message: string }
  | { kind: 'violation'; what: string }
  | { kind: 'uncaught'; code: string; message: string }
  | { kind: 'done' };

// The harness runs first, captures everything it needs (fs.writeSync, assert, setImmediate...) and reads a
// nonce from stdin, so the nonce is in no file, argument or environment variable the solution could read.
// Results go to fd 3 prefixed with the nonce: a solution can write to fd 3 too, but cannot forge a line.
// The solution and the tests live in an inner function so that the solution's hoisted declarations
// (`function require() {}`, `var JSON`) shadow names only there, never in the harness above.
// The first statement of that inner function hands the tests to the harness; registration is one-shot, so
// by the time any solution statement runs, a second call is refused.
// Only the harness function is strict: the solution may be sloppy-mode code.
// Network, process and heap-inspection APIs are replaced by functions that report a violation and throw;
// fs calls are wrapped to report permission denials the solution might catch and swallow.
const HARNESS = String.raw`const __skillrlRegister = (function () {
  'use strict';
  const fs = require('node:fs');
  const strict = require('node:assert').strict;
  const moduleApi = require('node:module');
  const writeSync = fs.writeSync;
  const readSync = fs.readSync;
  const schedule = setImmediate;
  const stringify = JSON.stringify;
  const defineProperty = Object.defineProperty;
  const processOn = process.on;
  const exit = process.reallyExit;
  const buf = Buffer.alloc(NONCE_LENGTH);
  let got = 0;
  while (got < NONCE_LENGTH) {
    let n = 0;
    try { n = readSync(0, buf, got, NONCE_LENGTH - got, null); } catch (e) { if (e && e.code === 'EAGAIN') continue; throw e; }
    if (n === 0) break;
    got += n;
  }
  const nonce = buf.toString('latin1', 0, got);
  const emit = (line) => { try { writeSync(3, nonce + ' ' + line + '\n'); } catch (e) {} };
  const describe = (e) => {
    try {
      const code = e && typeof e === 'object' && typeof e.code === 'string' ? e.code : '';
      let message = e && typeof e === 'object' && typeof e.message === 'string' ? e.message : '' + e;
      if (message.length > 500) message = message.slice(0, 500) + '…';
      return stringify({ code: code, message: message });
    } catch (inner) { return '{"code":"","message":"(error could not be described)"}'; }
  };
  const blocked = (what) => function () {
    emit('violation ' + what);
    const e = new Error('skillrl sandbox: ' + what + ' is disabled');
    e.code = 'ERR_SKILLRL_SANDBOX';
    throw e;
  };
  const lock = (obj, key, value) => {
    try { defineProperty(obj, key, { value: value, writable: false, configurable: false, enumerable: true }); } catch (e) {}
  };
  const disable = (obj, prefix, keys) => {
    if (!obj) return;
    for (const key of keys || Object.keys(obj)) if (typeof obj[key] === 'function') lock(obj, key, blocked(prefix + '.' + key));
  };
  const net = require('node:net');
  disable(net, 'net', ['connect', 'createConnection', 'createServer']);
  disable(net.Socket.prototype, 'net.Socket', ['connect']);
  disable(net.Server.prototype, 'net.Server', ['listen']);
  disable(require('node:tls'), 'tls', ['connect', 'createServer']);
  for (const name of ['http', 'https']) disable(require('node:' + name), name, ['request', 'get', 'createServer']);
  disable(require('node:http2'), 'http2', ['connect', 'createServer', 'createSecureServer']);
  const dgram = require('node:dgram');
  disable(dgram, 'dgram', ['createSocket']);
  disable(dgram.Socket.prototype, 'dgram.Socket', ['bind', 'send', 'connect']);
  const dns = require('node:dns');
  disable(dns, 'dns', Object.keys(dns).filter((k) => /^(lookup|resolve|reverse)/.test(k)));
  disable(dns.promises, 'dns.promises', Object.keys(dns.promises).filter((k) => /^(lookup|resolve|reverse)/.test(k)));
  disable(dns.Resolver.prototype, 'dns.Resolver', Object.getOwnPropertyNames(dns.Resolver.prototype).filter((k) => /^(resolve|reverse)/.test(k)));
  disable(dns.promises.Resolver.prototype, 'dns.promises.Resolver', Object.getOwnPropertyNames(dns.promises.Resolver.prototype).filter((k) => /^(resolve|reverse)/.test(k)));
  for (const name of ['fetch', 'WebSocket', 'EventSource']) if (typeof globalThis[name] === 'function') lock(globalThis, name, blocked(name));
  disable(require('node:child_process'), 'child_process');
  disable(require('node:v8'), 'v8', ['getHeapSnapshot', 'writeHeapSnapshot', 'setFlagsFromString']);
  disable(process, 'process', ['kill', '_kill', 'dlopen']);
  const watch = (obj, prefix) => {
    for (const key of Object.keys(obj)) {
      const original = obj[key];
      if (typeof original !== 'function' || /^[A-Z]/.test(key) || original === writeSync || original === readSync) continue;
      const flag = (e) => { if (e && e.code === 'ERR_ACCESS_DENIED') emit('violation ' + prefix + '.' + key); };
      const wrapper = function () {
        const args = Array.prototype.slice.call(arguments);
        const last = args[args.length - 1];
        if (typeof last === 'function') args[args.length - 1] = function (err) { flag(err); return last.apply(this, arguments); };
        let result;
        try { result = original.apply(this, args); } catch (e) { flag(e); throw e; }
        if (result && typeof result.then === 'function') result.then(undefined, flag);
        return result;
      };
      // Keep what hangs off the original (realpathSync.native, util.promisify.custom...).
      for (const k of Reflect.ownKeys(original)) {
        try { defineProperty(wrapper, k, Object.getOwnPropertyDescriptor(original, k)); } catch (e) {}
      }
      lock(obj, key, wrapper);
    }
  };
  watch(fs.promises, 'fs.promises');
  watch(fs, 'fs');
  moduleApi.syncBuiltinESMExports();
  processOn.call(process, 'uncaughtException', (e) => { emit('uncaught ' + describe(e)); exit.call(process, 70); });
  const assert = function assert(value, message) { return strict.ok(value, message); };
  for (const key of ['ok', 'equal', 'notEqual', 'strictEqual', 'notStrictEqual', 'deepEqual', 'notDeepEqual',
    'deepStrictEqual', 'notDeepStrictEqual', 'throws', 'doesNotThrow', 'rejects', 'doesNotReject', 'match',
    'doesNotMatch', 'fail']) lock(assert, key, strict[key]);
  Object.freeze(assert);
  let registered = false;
  return function register(tests) {
    if (registered) throw new Error('skillrl harness: tests are already registered');
    registered = true;
    const own = tests.slice();
    schedule(async () => {
      emit('start ' + own.length);
      for (let i = 0; i < own.length; i++) {
        let line;
        try { await own[i](assert); line = 'pass ' + i; } catch (e) { line = 'fail ' + i + ' ' + describe(e); }
        emit(line);
      }
      emit('done');
    });
  };
})();
`;

/** The script that runs in the sandbox: harness, then the tests registered, then the solution. */
export function buildHarness(solution: string, tests: CodeTest[]): string {
  const testFunctions = tests.map((t) => `async function (assert) {\n${t.code}\n}`).join(',\n');
  return `${HARNESS.replace(/NONCE_LENGTH/g, String(NONCE_LENGTH))}(function () {\n__skillrlRegister([\n${testFunctions}\n]);\n${solution}\n})();\n`;
}

/** Parses one fd-3 line that carried the right nonce; returns undefined for anything else. */
export function parseHarnessLine(line: string, nonce: string): HarnessLine | undefined {
  if (!line.startsWith(`${nonce} `)) return undefined;
  const body = line.slice(nonce.length + 1);
  const space = body.indexOf(' ');
  const kind = space < 0 ? body : body.slice(0, space);
  const rest = space < 0 ? '' : body.slice(space + 1);
  const error = (text: string) => {
    try {
      const e = JSON.parse(text) as { code?: unknown; message?: unknown };
      return {
        code: typeof e.code === 'string' ? e.code : '',
        message: typeof e.message === 'string' ? e.message : '',
      };
    } catch {
      return { code: '', message: text };
    }
  };
  switch (kind) {
    case 'start':
      return { kind, total: Number(rest) };
    case 'pass':
      return { kind, index: Number(rest) };
    case 'fail': {
      const sp = rest.indexOf(' ');
      return {
        kind,
        index: Number(sp < 0 ? rest : rest.slice(0, sp)),
        ...error(sp < 0 ? '' : rest.slice(sp + 1)),
      };
    }
    case 'violation':
      return { kind, what: rest };
    case 'uncaught':
      return { kind, ...error(rest) };
    case 'done':
      return { kind };
    default:
      return undefined;
  }
}

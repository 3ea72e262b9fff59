// tooldojo practice harness (Node). Reads the grader's start line, takes its own copies of
// everything it uses, loads the learner's file (CommonJS or ES module), then answers one
// JSON line per request on file descriptor 3. The learner's own console output goes to
// stdout/stderr, which the grader reads separately, so it can never be mistaken for an
// answer; every line the harness sends says how many bytes the learner's code has written
// there in all, so the grader takes a row's output only once it has them all (a console.log
// is counted on the row that made it, not on the next one).
//
// An answer carries data, never a verdict: the result as JSON, and the store as JSON after
// the call and after the caller's edit; the grader compares them with what it sent. Every
// built-in the harness calls is taken here, before the learner's code runs, so replacing
// JSON.stringify, Map.prototype.forEach or Object.keys later changes nothing here. Code in
// the same process can still reach the harness (the inspector, for one): the grader is a
// teacher, not a proctor.
'use strict';
const fs = require('fs');
const path = require('path');
const util = require('util');
const { pathToFileURL } = require('url');

const { writeSync, readSync, copyFileSync } = fs;
const { isProxy } = util.types;
const stringify = JSON.stringify;
const parse = JSON.parse;
const { apply } = Reflect;
const { keys: objectKeys, getOwnPropertyDescriptor, getPrototypeOf, hasOwn } = Object;
const isArray = Array.isArray;
const isFinite = Number.isFinite;
const toText = String;
const mapForEach = Map.prototype.forEach;
const mapSet = Map.prototype.set;
const MapCtor = Map;
const MapProto = Map.prototype;
const ObjectProto = Object.prototype;
const ArrayProto = Array.prototype;
const { push, join, sort } = Array.prototype;
const { slice, replace } = String.prototype;
const bufferFrom = Buffer.from;
const bufferAlloc = Buffer.alloc;
const bufferConcat = Buffer.concat;
const byteLength = Buffer.byteLength;
const bytesToText = Buffer.prototype.toString;
const { subarray, indexOf } = Uint8Array.prototype;
const RegExpCtor = RegExp;
const regexpExec = RegExp.prototype.exec;
const exit = process.exit;

const CHAN = 3;
const LEARNER = path.resolve(process.argv[2]);
const STOP = {};

// Bytes written to stdout and stderr since the harness started, counted in UTF-8 (or in the
// encoding a write names). console.log and the rest write through process.stdout.write and
// process.stderr.write, which write to a pipe at once (synchronously, on Linux), so by the
// time an answer is sent every byte it counts is in the pipe.
let printed = 0;

function countWrites(stream) {
  const inner = stream.write;
  stream.write = function write(chunk, encoding) {
    const done = apply(inner, this, arguments);
    try {
      printed += typeof chunk === 'string'
        ? byteLength(chunk, typeof encoding === 'string' ? encoding : 'utf8')
        : byteLength(chunk);
    } catch (err) {
      // a chunk the stream took but that has no length of its own: counted as nothing
    }
    return done;
  };
}

class Raw {
  #text;
  constructor(text) {
    this.#text = text;
  }
  static text(v) {
    return #text in v ? v.#text : undefined;
  }
}

// Plain JSON data as text, or undefined for anything else (a proxy, an accessor, a class
// instance, a Map outside the store) or too much.
function encode(value, limit, maps) {
  const out = [];
  let seen = 0;
  const put = (s) => apply(push, out, [s]);
  function walk(v, depth) {
    seen += 1;
    if (seen > 100000 || depth > 64) throw STOP;
    if (v === null) return put('null');
    const t = typeof v;
    if (t === 'boolean') return put(v ? 'true' : 'false');
    if (t === 'number') {
      if (!isFinite(v)) throw STOP;
      return put(toText(v));
    }
    if (t === 'string') return put(stringify(v));
    if (t !== 'object' || isProxy(v)) throw STOP;
    const raw = Raw.text(v);
    if (raw !== undefined) return put(raw);
    const proto = getPrototypeOf(v);
    if (isArray(v) && proto === ArrayProto) return walkArray(v, depth);
    if (maps && proto === MapProto) return walkMap(v, depth);
    if (proto !== ObjectProto && proto !== null) throw STOP;
    const names = apply(sort, objectKeys(v), []);
    put('{');
    let first = true;
    for (let i = 0; i < names.length; i += 1) {
      const desc = getOwnPropertyDescriptor(v, names[i]);
      if (!desc || !hasOwn(desc, 'value')) throw STOP;
      const kind = typeof desc.value;
      if (kind === 'undefined' || kind === 'function' || kind === 'symbol') continue;
      if (!first) put(',');
      first = false;
      put(stringify(names[i]));
      put(':');
      walk(desc.value, depth + 1);
    }
    return put('}');
  }
  function walkArray(v, depth) {
    const length = getOwnPropertyDescriptor(v, 'length').value;
    put('[');
    for (let i = 0; i < length; i += 1) {
      if (i) put(',');
      const desc = getOwnPropertyDescriptor(v, i);
      if (!desc) {
        put('null');
        continue;
      }
      if (!hasOwn(desc, 'value')) throw STOP;
      const kind = typeof desc.value;
      if (kind === 'undefined' || kind === 'function' || kind === 'symbol') put('null');
      else walk(desc.value, depth + 1);
    }
    return put(']');
  }
  function walkMap(v, depth) {
    const pairs = [];
    apply(mapForEach, v, [(item, key) => apply(push, pairs, [[key, item]])]);
    put('{');
    for (let i = 0; i < pairs.length; i += 1) {
      if (typeof pairs[i][0] !== 'string') throw STOP;
      if (i) put(',');
      put(stringify(pairs[i][0]));
      put(':');
      walk(pairs[i][1], depth + 1);
    }
    return put('}');
  }
  try {
    walk(value, 0);
  } catch (err) {
    if (err === STOP) return undefined;
    throw err;
  }
  const text = apply(join, out, ['']);
  return text.length <= limit ? text : undefined;
}

function send(message) {
  const text = encode(message, 1 << 30, false);
  const bytes = bufferFrom((text === undefined ? '{"error":"unencodable answer"}' : text) + '\n', 'utf8');
  let done = 0;
  while (done < bytes.length) done += writeSync(CHAN, bytes, done);
}

let pending = bufferAlloc(0);
function readLine() {
  for (;;) {
    const nl = apply(indexOf, pending, [10]);
    if (nl >= 0) {
      const line = apply(bytesToText, apply(subarray, pending, [0, nl]), ['utf8']);
      pending = apply(subarray, pending, [nl + 1]);
      return line;
    }
    const chunk = bufferAlloc(1 << 16);
    let n;
    try {
      n = readSync(CHAN, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') return null;
      throw e;
    }
    if (n === 0) return null;
    pending = bufferConcat([pending, apply(subarray, chunk, [0, n])]);
  }
}

function lineOf(err) {
  let stack = '';
  try {
    stack = toText((err && err.stack) || '');
  } catch (e) {
    return null;
  }
  const escaped = apply(replace, LEARNER, [/[.*+?^${}()|[\]\\]/g, '\\$&']);
  const m =
    apply(regexpExec, new RegExpCtor(escaped + ':(\\d+)'), [stack]) ||
    apply(regexpExec, /solution\.mjs:(\d+)/, [stack]);
  return m ? Number(m[1]) : null;
}

function describeError(err) {
  let text;
  try {
    const name = (err && err.name) || 'Error';
    const message = err && err.message !== undefined ? err.message : toText(err);
    text = `${name}: ${message}`;
  } catch (e) {
    text = 'an exception that could not be shown';
  }
  return { error: apply(slice, toText(text), [0, 400]), line: lineOf(err) };
}

function looksLikeEsm(err) {
  if (!err) return false;
  if (err.code === 'ERR_REQUIRE_ESM' || err.code === 'ERR_REQUIRE_ASYNC_MODULE') return true;
  return err.name === 'SyntaxError' && /\b(import|export)\b|top-level await|await is only valid/.test(err.message);
}

async function load() {
  if (path.extname(LEARNER) === '.mjs') return import(pathToFileURL(LEARNER).href);
  try {
    return require(LEARNER);
  } catch (err) {
    if (!looksLikeEsm(err)) throw err;
  }
  try {
    return await import(pathToFileURL(LEARNER).href);
  } catch (err) {
    if (!looksLikeEsm(err)) throw err;
  }
  // An older Node that does not detect module syntax in a .js file: load a copy as .mjs.
  const copy = path.join(process.cwd(), 'solution.mjs');
  copyFileSync(LEARNER, copy);
  return import(pathToFileURL(copy).href);
}

function pick(mod) {
  const named = (m) => (typeof m === 'function' && m.name === 'executeTool' ? m : undefined);
  const candidates = [
    mod && mod.executeTool,
    mod && mod.default && mod.default.executeTool,
    named(mod),
    mod && named(mod.default),
  ];
  return candidates.find((f) => typeof f === 'function');
}

function exportsOf(mod) {
  if (mod === null || mod === undefined) return [];
  if (typeof mod === 'function') return [toText(mod.name || '(anonymous function)')];
  const names = objectKeys(mod);
  if (mod.default && typeof mod.default === 'object') apply(push, names, objectKeys(mod.default));
  return names.slice(0, 20).map((n) => apply(slice, toText(n), [0, 100]));
}

function described(value) {
  const type = value === null ? 'null' : isArray(value) ? 'array' : typeof value;
  if (value === undefined || typeof value === 'function') return { type };
  const text = encode(value, 65536, false);
  if (text !== undefined) return { type, value: new Raw(text) };
  let shown = '?';
  try {
    shown = apply(slice, toText(value), [0, 400]);
  } catch (err) {
    // a value that cannot even be shown
  }
  return { type, repr: shown };
}

function snapshot(records) {
  const text = encode(records, 1 << 18, true);
  return text === undefined ? null : new Raw(text);
}

async function runExecute(fn, request, nonce) {
  const records = new MapCtor();
  const given = request.records;
  for (let i = 0; i < given.length; i += 1) apply(mapSet, records, [given[i][0], given[i][1]]);
  const args = parse(request.args_text);
  let result = fn(request.tool, args, request.context, records);
  if (result && typeof result.then === 'function') result = await result;
  const shown = described(result);
  const after = snapshot(records);
  if (!request.mutate) return { nonce, result: shown, store_after: after };
  try {
    const ticket = result && typeof result === 'object' ? result.ticket : undefined;
    if (ticket && typeof ticket === 'object') {
      ticket.title = request.mutate_title;
      ticket.status = 'deleted';
    }
  } catch (err) {
    // a frozen ticket refuses the edit, which keeps the store safe too
  }
  return { nonce, result: shown, store_after: after, store_after_edit: snapshot(records) };
}

async function main() {
  countWrites(process.stdout);
  countWrites(process.stderr);
  const start = readLine();
  let nonce = '';
  try {
    nonce = toText(parse(start).start);
  } catch (err) {
    return;
  }
  let mod;
  try {
    mod = await load();
  } catch (err) {
    send({ nonce, load_error: describeError(err), printed });
    return;
  }
  const fn = pick(mod);
  send({ nonce, hello: { functions: fn ? ['executeTool'] : [], defined: exportsOf(mod) }, printed });
  for (let line = readLine(); line !== null; line = readLine()) {
    const request = parse(line);
    let answer;
    try {
      answer = await runExecute(fn, request, nonce);
    } catch (err) {
      answer = { nonce, ...describeError(err) };
    }
    answer.printed = printed;
    send(answer);
  }
}

main().then(
  () => exit(0),
  (err) => {
    send({ load_error: describeError(err) });
    exit(0);
  },
);

// tooldojo practice harness (Node). Loads the learner's file (CommonJS or ES module), then
// answers one JSON line per request on file descriptor 3. The learner's own console output
// goes to stdout/stderr, which the grader reads separately.
'use strict';
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');

const CHAN = 3;
const LEARNER = path.resolve(process.argv[2]);

function send(message) {
  const bytes = Buffer.from(JSON.stringify(message) + '\n', 'utf8');
  let done = 0;
  while (done < bytes.length) done += fs.writeSync(CHAN, bytes, done);
}

let pending = Buffer.alloc(0);
function readLine() {
  for (;;) {
    const nl = pending.indexOf(10);
    if (nl >= 0) {
      const line = pending.subarray(0, nl).toString('utf8');
      pending = pending.subarray(nl + 1);
      return line;
    }
    const chunk = Buffer.alloc(1 << 16);
    let n;
    try {
      n = fs.readSync(CHAN, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') return null;
      throw e;
    }
    if (n === 0) return null;
    pending = Buffer.concat([pending, chunk.subarray(0, n)]);
  }
}

function lineOf(err) {
  const stack = String((err && err.stack) || '');
  const escaped = LEARNER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = stack.match(new RegExp(escaped + ':(\\d+)')) || stack.match(/solution\.mjs:(\d+)/);
  return m ? Number(m[1]) : null;
}

function describeError(err) {
  const name = (err && err.name) || 'Error';
  const message = err && err.message !== undefined ? err.message : String(err);
  return { error: `${name}: ${message}`.slice(0, 400), line: lineOf(err) };
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
  fs.copyFileSync(LEARNER, copy);
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
  if (typeof mod === 'function') return [mod.name || '(anonymous function)'];
  const names = Object.keys(mod);
  if (mod.default && typeof mod.default === 'object') names.push(...Object.keys(mod.default));
  return names.slice(0, 20);
}

function described(value) {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  if (value === undefined || typeof value === 'function') return { type };
  try {
    const text = JSON.stringify(value);
    if (text !== undefined && text.length <= 65536) return { type, value: JSON.parse(text) };
  } catch (err) {
    // not JSON: fall through to the plain rendering
  }
  return { type, repr: String(value).slice(0, 400) };
}

const snapshot = (records) => JSON.stringify([...records.entries()]);

async function runExecute(fn, request) {
  const records = new Map(request.records);
  const before = snapshot(records);
  const args = JSON.parse(request.args_text);
  const context = request.context;
  let result = fn(request.tool, args, context, records);
  if (result && typeof result.then === 'function') result = await result;
  const answer = { result: described(result) };
  answer.store_changed = snapshot(records) !== before;
  if (request.mutate) {
    const ticket = result && typeof result === 'object' ? result.ticket : undefined;
    if (ticket && typeof ticket === 'object') {
      try {
        ticket.title = request.mutate_title;
        ticket.status = 'deleted';
      } catch (err) {
        // a frozen ticket refuses the edit, which keeps the store safe too
      }
    }
    answer.store_changed_by_caller = snapshot(records) !== before;
  }
  return answer;
}

async function main() {
  let mod;
  try {
    mod = await load();
  } catch (err) {
    send({ load_error: describeError(err) });
    return;
  }
  const fn = pick(mod);
  send({ hello: { functions: fn ? ['executeTool'] : [], defined: exportsOf(mod) } });
  for (let line = readLine(); line !== null; line = readLine()) {
    const request = JSON.parse(line);
    let answer;
    try {
      answer = await runExecute(fn, request);
    } catch (err) {
      answer = describeError(err);
    }
    send(answer);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    send({ load_error: describeError(err) });
    process.exit(0);
  },
);

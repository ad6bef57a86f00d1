// The editor channel's contract, extension side: the shapes the Go test
// (editor/contract_test.go) recorded from the real sidecar, in
// editor/testdata/contract/*.json, are checked against src/protocol.ts twice:
// at compile time (each fixture is assigned to its method's types, with
// literal unions widened: the fixtures hold "" and 0 for every leaf) and at
// run time (no member the TypeScript type lacks, none it requires missing).
// The inspection goldens of inspect/testdata/golden get the run-time check
// against InspectResult too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHODS, type MethodName, type ParamsOf, type ResultOf } from '../src/protocol';
import { inspectErrorShape, inspectResultShape, SHAPES } from './contract-shapes';
import { check } from './shape';
import bridgeEvent from '../../editor/testdata/contract/dapscope_bridgeEvent.json';
import dapRequest from '../../editor/testdata/contract/dapscope_dapRequest.json';
import inspect from '../../editor/testdata/contract/dapscope_inspect.json';
import inspectProcesses from '../../editor/testdata/contract/dapscope_inspectProcesses.json';
import page from '../../editor/testdata/contract/dapscope_page.json';
import rayList from '../../editor/testdata/contract/dapscope_rayList.json';
import mcpEndpoint from '../../editor/testdata/contract/dapscope_mcpEndpoint.json';
import kernelAttach from '../../editor/testdata/contract/dapscope_kernelAttach.json';
import kernelVariables from '../../editor/testdata/contract/dapscope_kernelVariables.json';
import kernels from '../../editor/testdata/contract/dapscope_kernels.json';
import sessionEvent from '../../editor/testdata/contract/dapscope_sessionEvent.json';
import sessions from '../../editor/testdata/contract/dapscope_sessions.json';
import startProxy from '../../editor/testdata/contract/dapscope_startProxy.json';
import exit from '../../editor/testdata/contract/exit.json';
import initialize from '../../editor/testdata/contract/initialize.json';
import initialized from '../../editor/testdata/contract/initialized.json';
import shutdown from '../../editor/testdata/contract/shutdown.json';
import didChange from '../../editor/testdata/contract/textDocument_didChange.json';
import didClose from '../../editor/testdata/contract/textDocument_didClose.json';
import didOpen from '../../editor/testdata/contract/textDocument_didOpen.json';
import hover from '../../editor/testdata/contract/textDocument_hover.json';

const CONTRACT = join('..', 'editor', 'testdata', 'contract');
const GOLDEN = join('..', 'inspect', 'testdata', 'golden');

/** T with literal types widened to their primitives (the fixtures carry "" and 0). */
type Wire<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends null | undefined
        ? T
        : T extends readonly (infer U)[]
          ? Wire<U>[]
          : T extends object
            ? { [K in keyof T]: Wire<T[K]> }
            : T;

interface Fixture<M extends MethodName> {
  method: string;
  from: string;
  kind: string;
  params: Wire<ParamsOf<M>>[];
  result?: Wire<ResultOf<M>>[];
}

// The compile-time half: one entry per method (the compiler wants every
// MethodName and no other key), each fixture assignable to its types.
const FIXTURES: { [M in MethodName]: Fixture<M> } = {
  initialize,
  initialized,
  shutdown,
  exit,
  'textDocument/didOpen': didOpen,
  'textDocument/didChange': didChange,
  'textDocument/didClose': didClose,
  'textDocument/hover': hover,
  'dapscope/inspect': inspect,
  'dapscope/page': page,
  'dapscope/sessions': sessions,
  'dapscope/startProxy': startProxy,
  'dapscope/mcpEndpoint': mcpEndpoint,
  'dapscope/kernels': kernels,
  'dapscope/kernelAttach': kernelAttach,
  'dapscope/kernelVariables': kernelVariables,
  'dapscope/inspectProcesses': inspectProcesses,
  'dapscope/rayList': rayList,
  'dapscope/bridgeEvent': bridgeEvent,
  'dapscope/dapRequest': dapRequest,
  'dapscope/sessionEvent': sessionEvent,
};

const methods = Object.keys(METHODS) as MethodName[];

test('every method of the channel has a fixture, and every fixture a method', () => {
  const files = readdirSync(CONTRACT).filter((f) => f.endsWith('.json')).sort();
  assert.deepEqual(files, methods.map((m) => `${m.replace(/\//g, '_')}.json`).sort());
  assert.deepEqual(Object.keys(FIXTURES).sort(), [...methods].sort());
});

test('fixtures are the files the Go test wrote, with the sender and kind of protocol.ts', () => {
  for (const m of methods) {
    const onDisk = JSON.parse(readFileSync(join(CONTRACT, `${m.replace(/\//g, '_')}.json`), 'utf8'));
    assert.deepEqual(FIXTURES[m], onDisk, m);
    assert.equal(onDisk.method, m);
    assert.equal(onDisk.from, METHODS[m].from, `${m}: sender`);
    assert.equal(onDisk.kind, METHODS[m].kind, `${m}: kind`);
    assert.equal(onDisk.params.length > 0, true, `${m}: params recorded`);
    assert.equal(onDisk.result !== undefined, METHODS[m].kind === 'request', `${m}: a result exactly for requests`);
  }
});

test('params and results fit the TypeScript types at run time', () => {
  for (const m of methods) {
    const spec = SHAPES[m];
    const f: Fixture<MethodName> = FIXTURES[m];
    if (spec?.params) for (const p of f.params) assert.deepEqual(check(p, spec.params), [], `${m} params`);
    if (spec?.result) for (const r of f.result ?? []) assert.deepEqual(check(r, spec.result), [], `${m} result`);
  }
});

test('startProxy: both sides agree on {address, adapter}', () => {
  assert.deepEqual(Object.keys(startProxy.result[0]).sort(), ['adapter', 'address']);
});

test('a drift is caught: an unknown member, a missing required one, a misplaced object', () => {
  const spec = SHAPES['dapscope/startProxy']!.result!;
  assert.deepEqual(check({ address: '', adapter: '', sessionId: '' }, spec), ['$.sessionId: not in the TypeScript type']);
  assert.deepEqual(check({ address: '' }, spec), ['$.adapter: required by the TypeScript type, missing']);
  assert.match(check({ structure: 'x' }, inspectResultShape)[0], /\$\.structure: want an object/);
  assert.deepEqual(check({ statistics: { columns: [{ name: 'a', bogus: 1 }] } }, inspectResultShape), ['$.statistics.columns[0].bogus: not in the TypeScript type']);
});

test('every inspection golden fits InspectResult (errors: InspectError)', () => {
  const files = readdirSync(GOLDEN).filter((f) => f.endsWith('.json'));
  assert.ok(files.length >= 50, `${files.length} goldens`);
  const problems: string[] = [];
  for (const f of files) {
    const v = JSON.parse(readFileSync(join(GOLDEN, f), 'utf8'));
    const shape = /(^|_)error_/.test(f) ? inspectErrorShape : inspectResultShape;
    problems.push(...check(v, shape).map((p) => `${f}: ${p}`));
  }
  assert.deepEqual(problems, []);
});

// Unit tests: the one parser of adapter kinds (aliases, case), used by the
// launch defaults (config.ts) and the bridge (bridge.ts) alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADAPTER_KINDS, isJsDebugType, parseAdapterKind } from '../src/adapter';
import { adapterKind } from '../src/bridge';
import { adapterFor } from '../src/config';

test('kinds and aliases', () => {
  assert.deepEqual([...ADAPTER_KINDS], ['debugpy', 'dlv', 'node']);
  for (const k of ADAPTER_KINDS) assert.equal(parseAdapterKind(k), k);
  assert.equal(parseAdapterKind('python'), 'debugpy');
  assert.equal(parseAdapterKind('go'), 'dlv');
  assert.equal(parseAdapterKind('delve'), 'dlv');
  assert.equal(parseAdapterKind(' Delve '), 'dlv');
  assert.equal(parseAdapterKind('DEBUGPY'), 'debugpy');
  assert.equal(parseAdapterKind('nodejs'), 'node');
  assert.equal(parseAdapterKind('JS'), 'node');
});

test('anything else is no kind', () => {
  for (const v of ['', 'pwa-node', 'chrome', 'lldb', undefined, null, 3, {}]) assert.equal(parseAdapterKind(v), undefined, String(v));
});

test('config and bridge agree on every alias', () => {
  for (const name of ['debugpy', 'python', 'dlv', 'go', 'delve', 'Go', 'node', 'nodejs']) {
    assert.equal(adapterFor({ adapter: name }), parseAdapterKind(name), name);
    assert.equal(adapterKind(name), parseAdapterKind(name), name);
  }
  // Unknown debug types pass through the bridge; the launch defaults fall back by language.
  assert.equal(adapterKind('lldb'), 'lldb');
  assert.equal(adapterFor({ adapter: 'lldb' }, 'go'), 'dlv');
  assert.equal(adapterFor({ program: '/w/app.mjs' }), 'node');
});

test("js-debug's debug types are the node kind on the bridge, not in dapscope configurations", () => {
  for (const t of ['node', 'pwa-node', 'node-terminal', 'chrome', 'pwa-chrome', 'msedge', 'extensionHost', 'pwa-extensionHost']) {
    assert.ok(isJsDebugType(t), t);
    assert.equal(adapterKind(t), 'node', t);
  }
  for (const t of ['python', 'go', 'dapscope', 'lldb', undefined]) assert.equal(isJsDebugType(t), false, String(t));
  // A dapscope configuration cannot name a browser: it launches programs.
  assert.equal(adapterFor({ adapter: 'chrome', program: '/w/x.py' }), 'debugpy');
});

// Unit tests: the one parser of adapter kinds (aliases, case), used by the
// launch defaults (config.ts) and the bridge (bridge.ts) alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADAPTER_KINDS, parseAdapterKind } from '../src/adapter';
import { adapterKind } from '../src/bridge';
import { adapterFor } from '../src/config';

test('kinds and aliases', () => {
  assert.deepEqual([...ADAPTER_KINDS], ['debugpy', 'dlv']);
  for (const k of ADAPTER_KINDS) assert.equal(parseAdapterKind(k), k);
  assert.equal(parseAdapterKind('python'), 'debugpy');
  assert.equal(parseAdapterKind('go'), 'dlv');
  assert.equal(parseAdapterKind('delve'), 'dlv');
  assert.equal(parseAdapterKind(' Delve '), 'dlv');
  assert.equal(parseAdapterKind('DEBUGPY'), 'debugpy');
});

test('anything else is no kind', () => {
  for (const v of ['', 'node', 'pwa-node', 'lldb', undefined, null, 3, {}]) assert.equal(parseAdapterKind(v), undefined, String(v));
});

test('config and bridge agree on every alias', () => {
  for (const name of ['debugpy', 'python', 'dlv', 'go', 'delve', 'Go']) {
    assert.equal(adapterFor({ adapter: name }), parseAdapterKind(name), name);
    assert.equal(adapterKind(name), parseAdapterKind(name), name);
  }
  // Unknown debug types pass through the bridge; the launch defaults fall back by language.
  assert.equal(adapterKind('node'), 'node');
  assert.equal(adapterFor({ adapter: 'node' }, 'go'), 'dlv');
});

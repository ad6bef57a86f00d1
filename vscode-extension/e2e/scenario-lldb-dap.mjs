// The bridged lldb-dap scenario in a real VS Code (code-server), run by
// run.sh after the Rust one in the same window: the same Rust program
// (rust/src/main.rs, built by run.sh) is debugged with a plain
// `"type": "lldb-dap"` launch configuration, i.e. by the editor's own
// lldb-dap session, not by dapscope. The debug type comes from a test-only
// stand-in for LLVM's VS Code extension (e2e/lldb-dap-ext: the same
// contribution, Debian's lldb-dap-19 started as a DebugAdapterExecutable;
// the real extension is in no registry this test can reach). dapscope
// joins through the bridge as adapter kind lldb: the lldb probe runs in
// lldb-dap's Python through the session's evaluate (repl context,
// customRequest). First a plain configuration, with no Rust formatters (as
// the LLVM extension runs one: lldb-dap shows the Vec as its raw fields,
// the probe reads them): the stop, lldb-dap's own value of the Vec<f64>
// `prices` in the Variables view, dapscope's language hover (Alt) with the
// inspection, the webview from the Variables view and its data viewer
// sorted by the lldb probe (the largest value, 149, first at position 49),
// an MCP agent seeing the session as bridged (debug_type lldb-dap, adapter
// lldb) and inspecting prices and the String name, and that the probe's
// evaluates went through the bridge. Then a configuration that loads the
// toolchain's formatters in initCommands (as a Rust user of the LLVM
// extension may write it): lldb-dap's own value becomes "size=1000", and
// the Alt-hover and the agent's inspection are the same.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkPricesViewer, extensionLog, mcpTools, openRustPrices, runScenario, stats, timings } from './util.mjs';

const UD = process.env.E2E_USERDATA;
const ART = process.env.E2E_ARTIFACTS;

await runScenario('scenario-lldb-dap', 'lldb-dap-', async (page, h, log) => {
  await h.runCommand('dapscope: Show Output');
  const { editor, MARK } = await openRustPrices(h, page);

  const stopped = async (name) => {
    await h.startConfiguration(name);
    await h.until('the stop (breakpoint)', async () => (await page.locator('.debug-toolbar').count()) > 0 && (await page.getByText(/Paused on breakpoint|^breakpoint \d+\.\d+$/).count()) > 0);
    log(`${name}: lldb-dap (the editor's own session) stopped at the breakpoint`);
    const row = await h.variableRow('prices', /^\s*Locals\b/);
    // lldb-dap's own value: the editor's session answers VS Code directly,
    // never through the sidecar.
    const own = ((await row.textContent()) ?? '').trim().replace(/\s+/g, ' ');
    log(`Variables view (lldb-dap's own): ${own.slice(0, 100)}`);
    return { row, own };
  };
  // The agent's view of the paused session: bridged, and prices and name read by the probe.
  let tool;
  const agent = async () => {
    tool ??= await mcpTools(await h.mcpEndpoint(), 'dapscope-e2e-lldb-dap');
    let r = await tool('debug_sessions', {});
    const s = (r.structuredContent?.sessions ?? []).find((x) => x.origin === 'bridged' && x.debug_type === 'lldb-dap' && x.status === 'paused');
    if (!s || s.adapter !== 'lldb') throw new Error(`MCP debug_sessions: no paused bridged lldb-dap session: ${JSON.stringify(r).slice(0, 600)}`);
    log(`MCP sees the editor's lldb-dap session ${s.id} (${s.name}, ${s.debug_type}, adapter ${s.adapter}, ${s.status})`);
    r = await tool('debug_inspect_variable', { expression: 'prices', session_id: s.id });
    const st = r.structuredContent?.statistics;
    if (r.isError || st?.count !== 1000 || st?.nan_count !== 1 || st?.max !== 149) throw new Error(`MCP debug_inspect_variable prices: ${JSON.stringify(r).slice(0, 600)}`);
    log(`MCP debug_inspect_variable prices: ${r.structuredContent.summary ?? r.structuredContent.detected_type}, count ${st.count}, NaN ${st.nan_count}, max ${st.max}`);
    r = await tool('debug_inspect_variable', { expression: 'name', session_id: s.id });
    if (r.isError || r.structuredContent?.preview?.text !== 'ACME corp') throw new Error(`MCP debug_inspect_variable name: ${JSON.stringify(r).slice(0, 600)}`);
    log('MCP debug_inspect_variable name: "ACME corp"');
  };

  // 1. No formatters: the raw Vec.
  const plain = await stopped('lldb-dap: Rust prices');
  if (/size=1000/.test(plain.own)) throw new Error(`the plain configuration has the Rust formatters: ${plain.own}`);
  await h.screenshot('stopped');
  const summary = await checkPricesViewer(h, page, log, editor, MARK, plain.row);
  if (!/1,?000/.test(summary)) throw new Error(`webview summary: ${summary}`);
  await agent();
  await h.stopSession();

  // 2. The toolchain's formatters in initCommands.
  const fmt = await stopped('lldb-dap: Rust prices (Rust formatters)');
  if (!/size=1000/.test(fmt.own)) throw new Error(`the formatters did not load: ${fmt.own}`);
  await h.screenshot('stopped-formatters');
  await h.altHover(editor, MARK, 'prices', page.locator('.monaco-hover', { hasText: /float64/ }).first(), { accept: (t) => /1,?000/.test(t), name: 'prices-formatters' });
  await agent();

  await page.waitForTimeout(1_000);
  const ext = extensionLog(UD);
  if (ART) writeFileSync(join(ART, 'lldb-dap-dapscope.log'), ext);
  // The probe ran in the editor's session: its evaluates (a backtick
  // command in the repl context) went through customRequest.
  const probe = ext.split('\n').filter((l) => /dap \[lldb-dap\] → \{[^\n]*"command":"evaluate"/.test(l) && /"expression":"`/.test(l));
  if (!probe.length) throw new Error('no probe evaluate went through the bridge to the lldb-dap session');
  log(`probe evaluates through the bridge: ${probe.length}, e.g. ${probe[0].slice(0, 160)}`);
  log(`LATENCY inspect prices (webview, lldb-dap bridge): ${stats(timings(ext, /inspect prices answered in ([\d.]+) ms/g))}`);
  log(`LATENCY hover prices (language hover, lldb-dap bridge): ${stats(timings(ext, /hover main\.rs:\d+:\d+ answered in ([\d.]+) ms/g))}`);
  for (const cmd of ['evaluate', 'stackTrace', 'scopes', 'variables']) {
    const xs = timings(ext, new RegExp(`bridge ${cmd} on lldb-dap session took (\\d+) ms`, 'g'));
    if (xs.length) log(`LATENCY lldb-dap ${cmd} (customRequest, seen by the extension): ${stats(xs)}`);
  }
  await h.stopSession();
});

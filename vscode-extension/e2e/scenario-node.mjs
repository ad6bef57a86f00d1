// The JavaScript end-to-end scenario in a real VS Code (code-server), run by
// run.sh after the Python one in the same window: records.js is debugged
// with a plain `"type": "node"` launch configuration, i.e. by VS Code's own
// JavaScript debugger (js-debug), not by dapscope. dapscope joins through
// the bridge: js-debug's child session (the one with the thread) is
// reported to the sidecar as adapter node; the probe's evaluates in the top
// frame run through js-debug's CDP proxy (checked: the sidecar linked it),
// other requests through session.customRequest. Checked: the stop, the webview from the
// Variables view, its data viewer sorting and filtering the JavaScript table
// (a filter with a side effect refused), its refresh after a step, an MCP agent on the same js-debug
// session (debug_sessions lists it as bridged, debug_inspect_variable records
// returns the table, debug_step moves VS Code's session and the webview
// follows, debug_set_breakpoints is refused), and the latency seen by the
// extension, and the hover on records: VS Code's debug hover shown from the
// keyboard (Show or Focus Hover), then Alt held to switch to the language
// hover, where dapscope's table summary is (a mouse Alt-hover is tried on
// alternate attempts; in code-server 4.139.1 its language hover request is
// often cancelled at once while js-debug is paused).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extensionLog, mcpTools, runScenario, stats, timings } from './util.mjs';

const WS = process.env.E2E_WS;
const UD = process.env.E2E_USERDATA;
const ART = process.env.E2E_ARTIFACTS;

const MARK = '// BREAKPOINT';
const src = readFileSync(join(WS, 'records.js'), 'utf8').split('\n');
const bpLine = src.findIndex((l) => l.includes(MARK)) + 1;

await runScenario('scenario-node', 'node-', async (page, h, log) => {
  await h.runCommand('View: Show Explorer');
  const fileRow = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'records.js' });
  await fileRow.waitFor({ state: 'visible' });
  await fileRow.click();
  await page.locator('.tabs-container .tab', { hasText: 'records.js' }).waitFor({ state: 'visible' });
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-line', { hasText: MARK }).waitFor({ state: 'visible' });
  log('records.js open');
  await h.runCommand('dapscope: Show Output');
  await h.setBreakpoint(editor, MARK);
  log(`breakpoint set on line ${bpLine}`);

  // js-debug's own configuration: `"type": "node"`.
  await h.startConfiguration('Node: records');
  // On a loaded machine js-debug has been seen to stay paused at the
  // program's first line (the pause it takes to bind breakpoints before a
  // script runs) instead of running on to the breakpoint: continue from
  // there, at most twice, and say so.
  let earlyPauses = 0;
  let pausedSince = 0;
  await h.until('the stop (Paused on breakpoint)', async () => {
    if ((await page.locator('.debug-toolbar').count()) === 0) return false;
    if ((await page.getByText('Paused on breakpoint').count()) > 0) return true;
    const continueButton = page.locator('.debug-toolbar .codicon-debug-continue');
    if ((await continueButton.count()) === 0) { pausedSince = 0; return false; }
    pausedSince ||= Date.now();
    if (Date.now() - pausedSince > 5_000 && earlyPauses < 2) {
      earlyPauses++;
      pausedSince = 0;
      const shown = (await page.getByText(/Paused on/).first().textContent({ timeout: 1_000 }).catch(() => '')) || 'no reason shown';
      log(`js-debug paused before the breakpoint (${shown.trim()}); continuing (${earlyPauses})`);
      await h.screenshot(`early-pause-${earlyPauses}`);
      await continueButton.first().click();
    }
    return false;
  });
  log('js-debug stopped at the breakpoint');
  const recordsRow = await h.variableRow('records', /^\s*Local\b/);
  log(`Variables view (js-debug's own): ${((await recordsRow.textContent()) ?? '').trim().replace(/\s+/g, ' ').slice(0, 80)}`);
  await h.screenshot('stopped');

  // Hover records. While js-debug is paused the hover is VS Code's debug
  // hover with js-debug's own value (its answers do not run through the
  // sidecar, and js-debug applies no customDescriptionGenerator to arrays);
  // holding Alt switches it to the language hover, where dapscope's
  // summary is.
  // (keyboard on odd attempts, the mouse on even ones: see the header)
  const hover = page.locator('.monaco-hover', { hasText: /rows ×/ }).first();
  const hoverText = await h.altHover(editor, MARK, 'records', hover, { keyboard: (attempt) => attempt % 2 === 1 });
  if (!/Array 40 rows × 4 columns/.test(hoverText) || !/\bqty\b/.test(hoverText)) throw new Error(`the hover does not show the table: ${hoverText.slice(0, 300)}`);

  // Variables view → Inspect with dapscope → the webview.
  const wv = await h.inspectFromVariables(recordsRow);
  const summary = (await wv.locator('.summary .line').textContent()) ?? '';
  log(`webview: ${summary}`);
  // The JavaScript probe, run in js-debug's child session through the
  // bridge, shows the array of records as a table (qty has 6 nulls).
  const columns = () => wv.locator('.coltable tbody th.colname').allTextContents();
  if (!/40 rows × 4 columns/.test(summary)) throw new Error(`webview summary is not the records table: ${summary}`);
  const cols = await columns();
  if (cols.join(',') !== 'id,city,price,qty') throw new Error(`webview columns: ${cols}`);
  log(`webview columns: ${cols.join(', ')}`);
  await h.screenshot('webview-records');

  // The data viewer on the JavaScript table (dapscope/page through the
  // bridge; the probe's evaluates through js-debug's CDP proxy, the filter's
  // under V8's side-effect check): sort by price, then filter with a
  // JavaScript expression; the rows are the program's own (its makeRecords,
  // run here, sorted and filtered by Array.prototype.sort/filter).
  const makeRecords = new Function(src.join('\n').replace(/^main\(\);\s*$/m, '') + '\nreturn makeRecords;')();
  const recs = makeRecords(40);
  const byPrice = recs.map((r, i) => i).sort((a, b) => recs[a].price - recs[b].price);
  const kept = byPrice.filter((i) => recs[i].qty > 2 && recs[i].city === 'Nice');
  const firstRow = async () => wv.locator('.vtable tbody tr.vrow[data-row="0"]:not(.vloading)').first().locator('th, td').allTextContents();
  await h.until('the data viewer\'s rows', async () => (await wv.locator('.vtable tbody tr.vrow:not(.vloading)').count()) >= 2);
  await wv.locator('.vtable thead .vsort', { hasText: /^price/ }).click();
  const cheapest = await h.until('the cheapest row first after sorting by price', async () => {
    if ((await wv.locator('.vtable thead th[aria-sort="ascending"]').count()) !== 1) return '';
    const c = await firstRow();
    return c[0] === String(byPrice[0]) ? c : '';
  }, 30_000);
  log(`data viewer sorted by price: first row ${cheapest.join(' | ')} (the program: ${byPrice[0]}, price ${recs[byPrice[0]].price})`);
  const filterBox = wv.locator('.vfilter');
  if (!/JavaScript/.test((await filterBox.getAttribute('placeholder')) ?? '')) throw new Error('the filter box does not ask for a JavaScript expression');
  await filterBox.fill("qty > 2 && city === 'Nice'");
  await filterBox.press('Enter');
  const firstKept = await h.until('the table filtered', async () => {
    if (!((await wv.locator('.vcount').textContent()) ?? '').includes(`of ${kept.length} (filtered from 40)`)) return '';
    const c = await firstRow();
    return c[0] === String(kept[0]) ? c : '';
  }, 30_000);
  log(`data viewer filtered (qty > 2 && city === 'Nice'), sorted: ${kept.length} rows, first ${firstKept.join(' | ')} (the program: ${kept[0]})`);
  await h.screenshot('webview-records-filtered');
  // A filter that would change the program is refused, under the box.
  await filterBox.fill('records.pop() && true');
  await filterBox.press('Enter');
  await h.until('the refused filter\'s message', async () => /could change the program/.test((await wv.locator('.verror').textContent()) ?? ''), 30_000);
  log('a filter with a side effect is refused inline');
  await filterBox.fill('');
  await filterBox.press('Enter');
  await h.until('all 40 rows again', async () => /of 40$/.test((await wv.locator('.vcount').textContent()) ?? ''), 30_000);
  const gen1 = Number(await wv.locator('body').getAttribute('data-generation'));

  // Step over addTotals(records): the webview refreshes on js-debug's stop.
  await page.locator('.debug-toolbar .codicon-debug-step-over').first().click();
  await h.until('webview refresh after the step', async () => Number(await wv.locator('body').getAttribute('data-generation')) > gen1 && (await wv.locator('body').getAttribute('data-state')) === 'result');
  log(`step: webview refreshed (refresh #${await wv.locator('body').getAttribute('data-generation')})`);
  await h.until('the total column after the step', async () => (await columns()).join(',') === 'id,city,price,qty,total');
  log(`after the step: ${((await wv.locator('.summary .line').textContent()) ?? '').trim()}`);
  await h.screenshot('webview-after-step');

  // An MCP agent on the same js-debug session, through the sidecar's endpoint.
  const ep = await h.mcpEndpoint();
  const tool = await mcpTools(ep, 'dapscope-e2e-node');
  let r = await tool('debug_sessions', {});
  const js = (r.structuredContent?.sessions ?? []).find((s) => s.origin === 'bridged' && s.debug_type === 'pwa-node');
  if (!js || js.status !== 'paused' || js.adapter !== 'node') throw new Error(`MCP debug_sessions: no paused bridged pwa-node session: ${JSON.stringify(r)}`);
  log(`MCP sees js-debug's session ${js.id} (${js.name}, ${js.debug_type}, ${js.status})`);
  r = await tool('debug_inspect_variable', { expression: 'records', session_id: js.id });
  const mcpCols = (r.structuredContent?.preview?.columns ?? []).join(',');
  if (r.isError || mcpCols !== 'id,city,price,qty,total' || r.structuredContent?.structure?.shape?.[0] !== 40) throw new Error(`MCP debug_inspect_variable records: ${JSON.stringify(r).slice(0, 600)}`);
  log(`MCP debug_inspect_variable records: ${r.structuredContent.detected_type} ${r.structuredContent.structure.shape.join(' x ')}, columns ${mcpCols}`);
  r = await tool('debug_set_breakpoints', { session_id: js.id, file: 'records.js', breakpoints: [{ line: bpLine }] });
  if (!r.isError || r.structuredContent?.error?.code !== 'NOT_SUPPORTED') throw new Error(`MCP debug_set_breakpoints on js-debug's session: ${JSON.stringify(r).slice(0, 400)}`);
  log('MCP debug_set_breakpoints is refused on the editor\'s session (NOT_SUPPORTED)');
  // The agent steps the user's session: VS Code's own view follows (the webview refreshes on js-debug's stop).
  const gen2 = Number(await wv.locator('body').getAttribute('data-generation'));
  r = await tool('debug_step', { session_id: js.id, direction: 'over', timeout: 30 });
  const loc = r.structuredContent?.location;
  if (r.isError || r.structuredContent?.status !== 'paused' || loc?.line !== bpLine + 2) throw new Error(`MCP debug_step: ${JSON.stringify(r).slice(0, 600)}`);
  log(`MCP debug_step: paused at ${loc.file}:${loc.line} (${loc.function})`);
  await h.until('the webview to follow the agent\'s step', async () => Number(await wv.locator('body').getAttribute('data-generation')) > gen2 && (await wv.locator('body').getAttribute('data-state')) === 'result');
  log('VS Code followed the agent\'s step (webview refreshed)');
  await h.screenshot('after-agent-step');

  await page.waitForTimeout(1_000);
  const ext = extensionLog(UD);
  if (ART) writeFileSync(join(ART, 'node-dapscope.log'), ext); // the extension's and sidecar's log of this scenario
  // The sidecar linked js-debug's CDP proxy for the child session: the
  // probe's evaluates in the top frame go straight to V8, not through
  // customRequest (dapscope.trace.dap logs each DAP message that does).
  if (!/evaluates in the top frame go through js-debug's CDP proxy/.test(ext)) throw new Error("the sidecar did not link js-debug's CDP proxy");
  const clip = ext.split('\n').filter((l) => /dap \[pwa-node\] → \{[^\n]*"command":"evaluate"[^\n]*"context":"clipboard"/.test(l));
  log(`js-debug's CDP proxy linked; probe evaluates through customRequest: ${clip.length}${clip.length ? `, e.g. ${clip[clip.length - 1].slice(0, 160)}` : ''}`);
  log(`LATENCY inspect records (webview, js-debug bridge): ${stats(timings(ext, /inspect records answered in ([\d.]+) ms/g))}`);
  log(`LATENCY hover records (language hover, js-debug bridge): ${stats(timings(ext, /hover records\.js:\d+:\d+ answered in ([\d.]+) ms/g))}`);
  // The share of js-debug itself: each request's customRequest round trip.
  for (const cmd of ['evaluate', 'stackTrace', 'scopes', 'variables']) {
    const xs = timings(ext, new RegExp(`bridge ${cmd} on pwa-node session took (\\d+) ms`, 'g'));
    if (xs.length) log(`LATENCY js-debug ${cmd} (customRequest, seen by the extension): ${stats(xs)}`);
  }

  await h.stopSession();
});

// JupyterLab 4 as the user's real client (issue #31), run by run.sh against
// a private `jupyter lab`. In Debian's chromium (playwright-core) the user
// opens sales.ipynb and runs its cells: a 1,000 × 6 DataFrame with nulls and
// a str column, pandas' own answers (FACTS), and the namespace (TRACE).
// 1. the notebook runs in JupyterLab;
// 2. dapscope lists and inspects the kernel through the Jupyter Server, by
//    CLI (kernel list, kernel inspect: shape, nulls, a sorted page, a
//    filter) and by MCP over stdio (kernel_list, kernel_attach,
//    debug_inspect_variable with rows/sort), held to the FACTS cell;
// 3. the user turns JupyterLab's debugger on, sets a breakpoint in a
//    function with a local DataFrame and runs the cell: paused, dapscope
//    (MCP) inspects the local; JupyterLab's Variables panel shows it, and
//    Continue lets the cell finish;
// 4. no trace: TRACE before and after dapscope's calls (execution count up
//    only by the user's cells, no new names; a TRACE right after the debugger
//    goes on tells ipykernel's own names apart), no dapscope in any output.
// Each step's failure is reported with its error and the next steps go on;
// the exit status is 0 only if every check passed.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeLab, nullCounts, check, ipythonCacheName } from './lab.mjs';
import { startMCP } from './mcp.mjs';

const here = new URL('.', import.meta.url).pathname;
const require = createRequire(join(here, '..', '..', 'package.json'));
const { chromium } = require('playwright-core');
const run = promisify(execFile);

const BASE = process.env.E2E_URL;
const TOKEN_FILE = process.env.E2E_TOKEN_FILE;
const ART = process.env.E2E_ARTIFACTS;
const TMP = process.env.E2E_TMP;
const BIN = process.env.E2E_DAPSCOPE;
const TOKEN = readFileSync(TOKEN_FILE, 'utf8').trim();
const FILTER = 'qty > 5 and city == "Nice"';
const C = { build: 0, facts: 1, trace: 2, debug: 3 };
const t0 = Date.now();
const log = (m) => console.log(`[scenario-jupyterlab +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);

const failures = [];
let lab;
async function step(name, fn) {
  const s = Date.now();
  log(`STEP ${name}`);
  try {
    await fn();
    log(`STEP ${name}: ok (${((Date.now() - s) / 1000).toFixed(1)} s)`);
    return true;
  } catch (e) {
    failures.push(`${name}: ${e.message}`);
    log(`STEP ${name}: FAILED: ${e.message}`);
    if (lab) await lab.screenshot(`failed-${name.replace(/\W+/g, '-')}`);
    return false;
  }
}

/** `dapscope kernel …` against the server; its JSON output. */
async function dapscope(...args) {
  const s = Date.now();
  const { stdout } = await run(BIN, ['kernel', ...args, '--server', BASE, '--token-file', TOKEN_FILE, '--format', 'json'], { timeout: 60_000, maxBuffer: 16 << 20 })
    .catch((e) => { throw new Error(`dapscope kernel ${args[0]} failed: ${(e.stderr || e.message).trim().slice(0, 600)}`); });
  log(`dapscope kernel ${args.join(' ')}: ${Date.now() - s} ms`);
  const v = JSON.parse(stdout);
  return Array.isArray(v) && args[0] === 'inspect' ? v[0] : v;
}

async function main() {
  const ctx = await chromium.launchPersistentContext(join(TMP, 'chromium'), {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1600, height: 1000 },
  });
  let mcp;
  try {
    const page = ctx.pages()[0] ?? (await ctx.newPage());
    page.setDefaultTimeout(60_000);
    lab = makeLab(page, log, ART, BASE, TOKEN);
    let kernelId;
    let facts;
    let trace0;
    let session;
    let traceDbg;

    const opened = await step('1 the user runs the notebook in JupyterLab', async () => {
      await page.goto(`${BASE}lab/tree/sales.ipynb?reset&token=${TOKEN}`);
      await lab.until('the notebook\'s 4 cells', async () => (await page.locator('.jp-Notebook .jp-Cell').count()) === 4, 90_000);
      const sess = await lab.until('the notebook\'s kernel to be idle', async () => {
        const s = (await lab.api('api/sessions')).find((x) => x.path?.endsWith('sales.ipynb'));
        return s?.kernel?.execution_state === 'idle' ? s : null;
      }, 90_000, 500);
      kernelId = sess.kernel.id;
      log(`kernel ${kernelId} (${sess.kernel.name}) for ${sess.path}`);
      await lab.screenshot('notebook-open');
      const r0 = await lab.runCell(C.build, '(1000, 6)');
      const r1 = await lab.runCell(C.facts, 'FACTS');
      facts = await lab.printed(C.facts, 'FACTS');
      log(`pandas says (In[${r1.count}]): ${JSON.stringify(facts)}`);
      check(r1.count === r0.count + 1, 'the user\'s cells count one each', [r0.count, r1.count]);
      await lab.runCell(C.trace, 'TRACE');
      trace0 = await lab.printed(C.trace, 'TRACE');
      check(trace0.names.includes('df'), '%who_ls lists df', trace0.names);
      await lab.screenshot('dataframe-built');
    });
    if (!opened) throw new Error('the notebook did not run: nothing else can be checked');

    await step('2a dapscope CLI through the Jupyter Server', async () => {
      const listed = await dapscope('list');
      const ks = Array.isArray(listed) ? listed : listed.kernels;
      const k = ks?.find((x) => x.id === kernelId);
      check(k, `kernel list --server shows the notebook's kernel ${kernelId}`, listed);
      check(String(k.notebook ?? k.path ?? '').endsWith('sales.ipynb'), 'the kernel is the notebook\'s', k);
      const df = await dapscope('inspect', 'df', '--kernel', kernelId);
      check(JSON.stringify(df.structure?.shape) === JSON.stringify(facts.shape), 'kernel inspect df: shape = pandas\' df.shape', df.structure?.shape ?? df);
      const nulls = nullCounts(df);
      for (const [col, n] of Object.entries(facts.nulls)) check(nulls[col] === n, `kernel inspect df: nulls in ${col} = df.isna().sum()`, nulls);
      log(`CLI: shape ${df.structure.shape.join(' × ')}, nulls ${JSON.stringify(nulls)}; summary: ${df.summary}`);
      const page1 = await dapscope('inspect', 'df', '--kernel', kernelId, '--sort', '-price', '--rows', '0:5');
      check(JSON.stringify(page1.page?.positions) === JSON.stringify(facts.top_price_ids), 'kernel inspect --sort -price --rows 0:5: the rows of df.sort_values("price", ascending=False).head(5)', page1.page ?? page1);
      const pi = page1.page.columns.findIndex((c) => c.name === 'price');
      const prices = page1.page.rows.map((r) => Number(r[pi]?.v ?? r[pi]));
      check(JSON.stringify(prices) === JSON.stringify(facts.top_prices), 'the sorted page\'s prices', prices);
      const filtered = await dapscope('inspect', 'df', '--kernel', kernelId, '--filter', FILTER, '--rows', '0:3');
      check(filtered.page?.total_rows === facts.nice_qty_gt5, `kernel inspect --filter '${FILTER}': len(df.query(...))`, filtered.page?.total_rows ?? filtered);
      log(`CLI page: top prices ${prices.join(', ')} at rows ${page1.page.positions.join(', ')}; filter keeps ${filtered.page.total_rows} of ${filtered.page.all_rows}`);
    });

    await step('2b dapscope MCP (stdio): kernel_list, kernel_attach, debug_inspect_variable', async () => {
      mcp = await startMCP(BIN, join(TMP, 'mcp.log'), TMP);
      log(`MCP server ${JSON.stringify(mcp.server)}`);
      const listed = await mcp.call('kernel_list', { server_url: BASE, token_file: TOKEN_FILE });
      check(listed.kernels?.some((k) => k.id === kernelId), 'kernel_list shows the notebook\'s kernel', listed._text);
      const att = await mcp.call('kernel_attach', { server_url: BASE, kernel_id: kernelId, token_file: TOKEN_FILE });
      session = att.session_id;
      log(`kernel_attach: ${att._text.split('\n')[0]}`);
      check(att._text.includes('df'), 'kernel_attach\'s first stop lists df', att._text);
      const r = await mcp.call('debug_inspect_variable', { session_id: session, expression: 'df', sort: [{ column: 'price', descending: true }], rows: { offset: 0, limit: 5 } });
      check(JSON.stringify(r.structure?.shape) === JSON.stringify(facts.shape), 'debug_inspect_variable df: shape', r.structure?.shape ?? r._text);
      check(JSON.stringify(r.page?.positions) === JSON.stringify(facts.top_price_ids), 'debug_inspect_variable df sorted by -price: the first rows', r.page ?? r._text);
      const nulls = nullCounts(r);
      for (const [col, n] of Object.entries(facts.nulls)) if (col in nulls) check(nulls[col] === n, `debug_inspect_variable: nulls in ${col}`, nulls);
      log(`MCP: ${r.summary ?? ''}; sorted rows ${r.page.positions.join(', ')}`);
    });

    await step('4a no trace of dapscope after its CLI and MCP calls', async () => {
      const r = await lab.runCell(C.trace, 'TRACE');
      const trace1 = await lab.printed(C.trace, 'TRACE');
      check(trace1.count === trace0.count + 1, 'the execution count moved only by the user\'s TRACE cell', [trace0.count, trace1.count]);
      check(JSON.stringify(trace1.names) === JSON.stringify(trace0.names), '%who_ls unchanged', [trace0.names, trace1.names]);
      const added = trace1.dir.filter((n) => !trace0.dir.includes(n) && !ipythonCacheName(n));
      check(added.length === 0, 'no new name in dir()', added);
      log(`no trace: In[${trace0.count}] → In[${trace1.count}] (prompt [${r.count}]), %who_ls ${trace1.names.join(' ')}`);
      await lab.screenshot('no-trace-after-dapscope');
    });

    await step('3 JupyterLab\'s debugger: a breakpoint, dapscope reads the paused local, Continue', async () => {
      await lab.enableDebugger();
      // The namespace once JupyterLab's debugger is on, before dapscope reads
      // the paused cell (ipykernel's debugpy may show here already).
      await lab.runCell(C.trace, 'TRACE');
      traceDbg = await lab.printed(C.trace, 'TRACE');
      log(`JupyterLab's debugger on: new names ${JSON.stringify(traceDbg.dir.filter((n) => !trace0.dir.includes(n) && !ipythonCacheName(n)))} (before dapscope's next call)`);
      await lab.screenshot('debugger-on');
      const bp = await lab.setBreakpoint(C.debug, 4, 'n = len(local_df)');
      log(`JupyterLab's Breakpoints panel: ${JSON.stringify(bp)}`);
      await lab.screenshot('breakpoint-set');
      await lab.startCell(C.debug);
      let dapscopeErr = null;
      try {
        await lab.until('JupyterLab to pause in nice_orders at line 4 (call stack)', async () =>
          (await page.locator('.jp-DebuggerCallstackFrame', { hasText: 'nice_orders' }).count()) > 0, 60_000, 500);
        log('JupyterLab paused at the breakpoint');
        try {
          check(session, 'an MCP session attached in step 2b');
          const st = await lab.until('dapscope\'s session to see the debugger\'s stop in nice_orders', async () => {
            const s = await mcp.call('debug_stack', { session_id: session });
            return s.frames?.[0]?.name?.includes('nice_orders') ? s : null;
          }, 30_000, 500);
          const frame = st.frames[0].id;
          log(`dapscope's stack: ${st.frames.map((f) => `${f.name}:${f.line}`).join(' ← ')}`);
          check(st.frames[0].line === 4, 'dapscope sees the stop at the breakpoint\'s line 4', st.frames[0]);
          const r = await mcp.call('debug_inspect_variable', { session_id: session, expression: 'local_df', frame_id: frame, sort: [{ column: 'total', descending: true }], rows: { offset: 0, limit: 3 } });
          check(r.structure?.shape?.[0] === facts.nice_rows && r.structure?.shape?.[1] === 7, `local_df is ${facts.nice_rows} × 7 (the Nice rows + total)`, r.structure?.shape ?? r._text);
          check(r.page?.columns?.some((c) => c.name === 'total'), 'local_df\'s page has the total column', r.page);
          log(`dapscope read the paused local: ${r.summary ?? JSON.stringify(r.structure.shape)}; top total at rows ${r.page.positions.join(', ')}`);
        } catch (e) {
          dapscopeErr = e;
          log(`dapscope on the paused cell: ${e.message}`);
        }
        await lab.until('JupyterLab\'s Variables panel to show local_df', async () =>
          (await page.locator('.jp-DebuggerVariables').first().innerText().catch(() => '')).includes('local_df'), 30_000, 500);
        await lab.screenshot('paused-variables-panel');
        await lab.pressContinue();
        await lab.until('the cell to finish with its output', async () => (await lab.outputText(C.debug)).includes('DEBUG'), 30_000, 500);
      } finally {
        await lab.continueUntilDone(C.debug).catch((e) => log(e.message)); // the next steps need the kernel back
      }
      const out = await lab.printed(C.debug, 'DEBUG');
      check(out[0] === facts.nice_rows, 'the cell\'s own answer after Continue', out);
      log(`Continue: the cell printed DEBUG ${JSON.stringify(out)}`);
      await lab.screenshot('continued');
      if (dapscopeErr) throw dapscopeErr;
    });

    await step('4b no trace at the end', async () => {
      const r = await lab.runCell(C.trace, 'TRACE');
      const t = await lab.printed(C.trace, 'TRACE');
      check(t.count === trace0.count + 4, 'the execution count moved only by the user\'s cells (TRACE, TRACE, the debugged cell, TRACE)', [trace0.count, t.count]);
      // ipykernel's Debugger.start (ipykernel/debugger.py) runs a silent
      // `import debugpy; debugpy.listen(...)` in the user namespace when
      // JupyterLab turns its debugger on, racing the next cell (it shows in
      // the TRACE after the toggle or only here). dapscope never starts the
      // debugger: TRACE 4a, after all its CLI and MCP calls, had no new name.
      const added = t.dir.filter((n) => !trace0.dir.includes(n) && !ipythonCacheName(n));
      check(JSON.stringify(added.filter((n) => n !== 'debugpy')) === JSON.stringify(['nice_orders']), 'the only new names are the user\'s function and ipykernel\'s debugpy', added);
      check(JSON.stringify(t.names.filter((n) => !['nice_orders', 'debugpy'].includes(n))) === JSON.stringify(trace0.names), '%who_ls: only nice_orders (and ipykernel\'s debugpy) added', [trace0.names, t.names]);
      log(`new names since TRACE 4a: ${added.join(', ')}${added.includes('debugpy') ? ` (debugpy: ipykernel's debugger, ${traceDbg?.dir.includes('debugpy') ? 'already in the TRACE right after the toggle' : 'after the TRACE that followed the toggle'})` : ''}`);
      const outs = await lab.allOutputs();
      check(!outs.some((o) => /dapscope/i.test(o)), 'no output mentions dapscope', outs);
      check(outs.length === 4 && outs.every((o) => o.trim().split('\n').length <= 2), 'one short output per cell', outs);
      log(`prompts: ${JSON.stringify(await Promise.all([0, 1, 2, 3].map((i) => lab.prompt(i))))} (last TRACE [${r.count}])`);
      await lab.screenshot('final');
    });
  } finally {
    mcp?.close();
    await ctx.close().catch(() => {});
  }
}

main().then(() => {
  if (failures.length) {
    for (const f of failures) console.log(`FAILED: ${f}`);
    process.exit(1);
  }
  log('all checks passed');
  process.exit(0);
}, (e) => {
  for (const f of failures) console.log(`FAILED: ${f}`);
  console.log(`FAILED: ${e.stack ?? e.message}`);
  process.exit(1);
});

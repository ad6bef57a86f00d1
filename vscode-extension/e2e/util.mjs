// Small helpers shared by the e2e scenarios (scenario.mjs, scenario-node.mjs,
// scenario-rust.mjs, scenario-lldb-dap.mjs): a scenario's browser and its
// PASS/FAIL (runScenario), polling, the command palette, opening a file,
// starting a named configuration, breakpoints, a variable's row, the
// Alt-hover, Inspect with dapscope from the Variables view, the extension's
// log, the webview's document and MCP calls. makeHelpers binds them to one page.
import { createRequire } from 'node:module';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LONG = 120_000;

/** The extension's log files (LogOutputChannel) under the user-data logs, joined. */
export function extensionLog(userData) {
  const found = [];
  const walk = (d) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/dapscope\.log$/.test(n)) found.push(p);
    }
  };
  walk(join(userData, 'logs'));
  return found.map((p) => readFileSync(p, 'utf8')).join('\n');
}

export function timings(text, re) {
  return [...text.matchAll(re)].map((m) => Number(m[1]));
}

export function stats(xs) {
  if (!xs.length) return 'n/a';
  const s = [...xs].sort((a, b) => a - b);
  const med = s[Math.floor(s.length / 2)];
  return `n=${s.length} median=${med.toFixed(1)} ms min=${s[0].toFixed(1)} max=${s[s.length - 1].toFixed(1)}`;
}

/** One MCP request over streamable HTTP; returns the session id and the JSON-RPC message. */
export async function mcpCall(ep, sessionId, body) {
  const headers = { Authorization: `Bearer ${ep.token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  if (sessionId) headers['Mcp-Session-Id'] = sessionId;
  const res = await fetch(ep.url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok && res.status !== 202) throw new Error(`MCP HTTP ${res.status}: ${text}`);
  const sid = res.headers.get('mcp-session-id') ?? sessionId;
  if (!text) return { sid, msg: undefined };
  const json = text.trimStart().startsWith('{') ? text : text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).pop();
  return { sid, msg: JSON.parse(json) };
}

/**
 * An MCP client on the endpoint `ep` (initialized as `clientName`):
 * tool(name, args) calls a tool and returns its result ({isError,
 * structuredContent: the JSON-RPC message} when the call itself failed).
 */
export async function mcpTools(ep, clientName) {
  let { sid, msg } = await mcpCall(ep, undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: clientName, version: '1' } } });
  if (!msg?.result?.serverInfo) throw new Error(`MCP initialize: ${JSON.stringify(msg)}`);
  await mcpCall(ep, sid, { jsonrpc: '2.0', method: 'notifications/initialized' });
  let id = 2;
  return async (name, args) => {
    ({ msg } = await mcpCall(ep, sid, { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } }));
    return msg?.result ?? { isError: true, structuredContent: msg };
  };
}

/** Helpers bound to a Playwright page; log(m) prints a scenario line; art is the screenshot folder. */
export function makeHelpers(page, log, art, prefix) {
  let shot = 0;
  async function screenshot(name) {
    shot++;
    const p = join(art, `${prefix}${String(shot).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: p }).catch((e) => log(`screenshot ${name} failed: ${e.message}`));
    log(`screenshot ${p}`);
  }

  /** Polls fn until it returns a truthy value or the time runs out. */
  async function until(what, fn, timeout = LONG, every = 500) {
    const end = Date.now() + timeout;
    let last;
    for (;;) {
      try {
        const v = await fn();
        if (v) return v;
      } catch (e) {
        last = e;
      }
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}`);
      await page.waitForTimeout(every);
    }
  }

  /** Runs a command from the palette (retried: extension commands appear late). */
  async function runCommand(title) {
    await until(`command "${title}"`, async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${title}`);
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
      try {
        await row.waitFor({ state: 'visible', timeout: 4_000 });
      } catch {
        await page.keyboard.press('Escape');
        return false;
      }
      await page.keyboard.press('Enter');
      return true;
    }, LONG, 2_000);
    log(`ran command: ${title}`);
  }

  /** Starts the launch configuration named `name` (Debug: Select and Start Debugging). */
  async function startConfiguration(name) {
    await until(`configuration "${name}" started`, async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget input').fill('>Debug: Select and Start Debugging');
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Select and Start Debugging' }).first().waitFor({ timeout: 5_000 });
      await page.keyboard.press('Enter');
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
      await row.waitFor({ timeout: 5_000 });
      await row.click();
      return true;
    }, 60_000, 1_000);
    log(`started configuration: ${name}`);
  }

  /** Sets a breakpoint on the line containing marker (idempotent). */
  async function setBreakpoint(editor, marker) {
    const line = editor.locator('.view-line', { hasText: marker });
    await until(`breakpoint at ${marker}`, async () => {
      if ((await editor.locator('.codicon-debug-breakpoint').count()) > 0) return true;
      await line.click();
      await page.keyboard.press('F9');
      try {
        await editor.locator('.codicon-debug-breakpoint').first().waitFor({ state: 'visible', timeout: 10_000 });
        return true;
      } catch {
        return false;
      }
    }, 60_000, 500);
  }

  /** The webview's inner document. */
  function webview() {
    return page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
  }

  /** The MCP endpoint of this window's sidecar (dapscope: Copy MCP Endpoint → clipboard). */
  async function mcpEndpoint() {
    await runCommand('dapscope: Copy MCP Endpoint');
    const clip = await until('the MCP endpoint in the clipboard', async () => {
      const t = await page.evaluate(() => navigator.clipboard.readText());
      return t.includes('"url"') ? t : '';
    }, 30_000);
    const cfg = JSON.parse(clip);
    return { url: cfg.url, token: cfg.headers.Authorization.replace(/^Bearer /, '') };
  }

  /** Opens `path` (relative to the workspace) with Quick Open; its tab is `tab`. */
  async function openFile(path, tab) {
    await until(`${tab} open`, async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+P');
      await page.locator('.quick-input-widget input').fill(path);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: tab }).first().waitFor({ timeout: 5_000 });
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container .tab', { hasText: tab }).waitFor({ state: 'visible', timeout: 10_000 });
      return true;
    }, 60_000, 1_000);
    log(`${tab} open`);
  }

  /** Scrolls the editor to line `n` (Go to Line) until the line holding `marker` shows. */
  async function revealLine(editor, marker, n) {
    const line = editor.locator('.view-line', { hasText: marker });
    await until(`the line with ${marker} in view`, async () => {
      if (await line.isVisible()) return true;
      await page.keyboard.press('Control+G');
      await page.keyboard.type(String(n));
      await page.keyboard.press('Enter');
      return false;
    }, 30_000, 1_000);
    return line;
  }

  /** The Variables view's row of `name`, once shown (the scope `scope`, a RegExp, expanded when collapsed). */
  async function variableRow(name, scope) {
    const row = page.locator('.debug-variables .monaco-list-row', { hasText: new RegExp(`^\\s*${name}\\b`) }).first();
    await until(`${name} in the Variables view`, async () => {
      if (await row.isVisible()) return true;
      const s = page.locator('.debug-variables .monaco-list-row', { hasText: scope }).first();
      if ((await s.count()) && (await s.getAttribute('aria-expanded')) !== 'true') await s.click();
      return false;
    }, 60_000, 1_000);
    return row;
  }

  /**
   * dapscope's language hover on `word` (the line holding `marker`), with Alt
   * held, the way VS Code switches from its debug hover to the language
   * hover: the debug hover shown on the word (by the mouse, or with
   * `keyboard`, a function of the attempt number, from the keyboard: Show
   * or Focus Hover), then Alt. Retried until `hover` (a locator) shows and
   * accept(its text) holds; returns the text.
   *
   * The mouse comes to the word in single steps, from the start of its own
   * line: VS Code (debugEditorContribution's onEditorMouseMove) turns the
   * editor hover off whenever the mouse reaches a new text position, Alt
   * held or not, so a path over other text with Alt held leaves no
   * language hover at all (the Rust scenario's intermittent failure, seen
   * when the panel's height put the path over the lines above).
   */
  async function altHover(editor, marker, word, hover, { accept = () => true, keyboard = () => false, name = word, timeout = 120_000 } = {}) {
    let attempt = 0;
    let text = '';
    const debugHover = page.locator('.debug-hover-widget').first();
    await until(`the Alt-hover on ${name}`, async () => {
      attempt++;
      const box = await wordBox(editor, marker, word);
      const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      const line = await editor.locator('.view-line', { hasText: marker }).first().boundingBox();
      const viaKeyboard = keyboard(attempt);
      await page.keyboard.press('Escape');
      await page.mouse.click(at.x, at.y);
      await page.mouse.move(5, 600);
      await page.waitForTimeout(300);
      try {
        if (viaKeyboard) {
          await page.keyboard.press('Control+K');
          await page.keyboard.press('Control+I');
        } else {
          await page.mouse.move(line.x + 3, at.y);
          await page.mouse.move(at.x, at.y);
        }
        const shown = await debugHover.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
        await page.keyboard.down('Alt');
        // With the debug hover shown, Alt shows the language hover at once;
        // without it, a move within the word (the same text position) asks for it.
        if (!viaKeyboard && !(await hover.waitFor({ state: 'visible', timeout: 1_500 }).then(() => true, () => false))) {
          await page.mouse.move(at.x + 1, at.y);
        }
        // (the language hover, never VS Code's debug hover with the same text)
        const ok = await hover.waitFor({ state: 'visible', timeout: 10_000 }).then(() => hover.evaluate((el) => !el.closest('.debug-hover-widget')), () => false);
        if (ok) {
          text = (await hover.textContent()) ?? '';
          await screenshot(`hover-${name}`); // while Alt is held: the hover is still shown
        } else {
          const any = await page.locator('.monaco-hover:visible').allTextContents().catch(() => []);
          log(`hover attempt ${attempt} (${viaKeyboard ? 'keyboard' : 'mouse'}; debug hover ${shown ? 'shown' : 'not shown'} before Alt): no dapscope hover; visible hovers: ${JSON.stringify(any.map((t) => t.slice(0, 80)))}`);
        }
        return ok && accept(text);
      } finally {
        await page.keyboard.up('Alt');
      }
    }, timeout, 500);
    log(`hover on ${name}: ${text.trim().replace(/\s+/g, ' ').slice(0, 140)}`);
    await page.keyboard.press('Escape');
    await page.mouse.move(5, 500);
    return text;
  }

  /** Runs the Variables view's context-menu item `item` on row until done() says it took effect. */
  async function variablesMenu(row, item, done) {
    await until(`${item} in the Variables context menu`, async () => {
      await page.keyboard.press('Escape');
      await row.click({ button: 'right' });
      const action = page.locator('.monaco-menu .action-item', { hasText: item }).first();
      await action.waitFor({ state: 'visible', timeout: 5_000 });
      await page.waitForTimeout(400); // menus ignore a click that comes too soon after opening
      await action.hover();
      await action.click();
      return done();
    }, 90_000, 1_000);
  }

  /** Variables view → Inspect with dapscope on `row` → the webview with its result; returns the webview's document. */
  async function inspectFromVariables(row) {
    await variablesMenu(row, 'Inspect with dapscope',
      () => page.locator('iframe.webview').first().waitFor({ state: 'attached', timeout: 15_000 }).then(() => true, () => false));
    const wv = webview();
    await until('the webview result', async () => (await wv.locator('body').getAttribute('data-state')) === 'result');
    return wv;
  }

  /** Stops the debug session (Shift+F5) until the debug toolbar is gone. */
  async function stopSession() {
    await until('the session to end', async () => {
      if ((await page.locator('.debug-toolbar:visible').count()) === 0) return true;
      await page.keyboard.press('Shift+F5');
      return false;
    }, 90_000, 3_000);
  }

  return { screenshot, until, runCommand, startConfiguration, setBreakpoint, webview, mcpEndpoint, openFile, revealLine, variableRow, altHover, variablesMenu, inspectFromVariables, stopSession };
}

/**
 * Runs one scenario: headless Chromium on $E2E_URL (one page, clipboard
 * allowed), its helpers (screenshots prefixed `prefix`), then body(page, h,
 * log); logs PASS, or FAIL with a screenshot and sets the exit code.
 */
export async function runScenario(name, prefix, body) {
  const require = createRequire(join(new URL('.', import.meta.url).pathname, '..', '..', 'package.json'));
  const { chromium } = require('playwright-core');
  const url = process.env.E2E_URL;
  const t0 = Date.now();
  const log = (m) => console.log(`[${name} +${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let h;
  try {
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
    const page = await context.newPage();
    page.setDefaultTimeout(LONG);
    h = makeHelpers(page, log, process.env.E2E_ARTIFACTS, prefix);
    log(`opening ${url}`);
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible' });
    await body(page, h, log);
    log('PASS');
  } catch (e) {
    log(`FAIL: ${e?.stack ?? e}`);
    if (h) await h.screenshot('failure');
    // The extension's and sidecar's log of the failed scenario (a later
    // scenario's window writes its own).
    const ud = process.env.E2E_USERDATA;
    const art = process.env.E2E_ARTIFACTS;
    if (ud && art) {
      try {
        writeFileSync(join(art, `${prefix}failure-dapscope.log`), extensionLog(ud));
      } catch (err) {
        log(`no extension log: ${err}`);
      }
    }
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

/**
 * Opens rust/src/main.rs (dapscope's Rust test program, built by run.sh) at
 * the line marked `// break here`, with a breakpoint there; returns the
 * editor and the marker (scenario-rust.mjs, scenario-lldb-dap.mjs).
 */
export async function openRustPrices(h, page) {
  const MARK = '// break here';
  const src = readFileSync(join(process.env.E2E_WS, 'rust', 'src', 'main.rs'), 'utf8').split('\n');
  await h.openFile('rust/src/main.rs', 'main.rs');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await h.revealLine(editor, MARK, src.findIndex((l) => l.includes(MARK)) + 1);
  await h.setBreakpoint(editor, MARK);
  return { editor, MARK };
}

/**
 * The Rust program's Vec<f64> `prices` (1,000 values, one NaN, the largest,
 * 149, first at position 49) through dapscope, stopped at the marked line:
 * the language hover (Alt) with the inspection, then Inspect with dapscope
 * from its Variables row (`row`): the webview and the data viewer's rows,
 * sorted descending by the lldb probe. Returns the webview's summary line.
 */
export async function checkPricesViewer(h, page, log, editor, marker, row) {
  const hover = page.locator('.monaco-hover', { hasText: /float64/ }).first();
  await h.altHover(editor, marker, 'prices', hover, { accept: (t) => /1,?000/.test(t) });
  const wv = await h.inspectFromVariables(row);
  const summary = (await wv.locator('.summary .line').textContent()) ?? '';
  log(`webview: ${summary}`);
  await h.until("the data viewer's rows", async () => (await wv.locator('.vtable tbody tr.vrow:not(.vloading)').count()) >= 2);
  const count = (await wv.locator('.vcount').textContent()) ?? '';
  if (!/1,?000$/.test(count)) throw new Error(`data viewer count: ${count}`);
  await h.screenshot('webview-prices');
  const sortBy = wv.locator('.vtable thead .vsort', { hasText: /^value/ });
  await sortBy.click();
  await h.until('ascending sort', async () => (await wv.locator('.vtable thead th[aria-sort="ascending"]').count()) === 1);
  await sortBy.click();
  const first = await h.until('the largest value first (descending)', async () => {
    if ((await wv.locator('.vtable thead th[aria-sort="descending"]').count()) !== 1) return '';
    const cells = await wv.locator('.vtable tbody tr.vrow:not(.vloading)').first().locator('th, td').allTextContents();
    return cells[0] === '49' ? cells : '';
  }, 30_000);
  log(`data viewer sorted descending: first row ${first.join(' | ')} (the program: position 49, 149)`);
  if (!String(first[1]).startsWith('149')) throw new Error(`first row ${first}`);
  await h.screenshot('webview-sorted');
  return summary;
}

/** The bounding box of `word` on the editor line containing `marker`. */
export async function wordBox(editor, marker, word) {
  return editor.locator('.view-line', { hasText: marker }).evaluate((el, w) => {
    const re = new RegExp(`\\b${w}\\b`);
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const i = n.textContent.search(re);
      if (i >= 0) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + w.length);
        const b = r.getBoundingClientRect();
        return { x: b.x, y: b.y, width: b.width, height: b.height };
      }
    }
    return null;
  }, word);
}

// ---- The "Compare across Processes" panel (scenario-processes.mjs, scenario-ray.mjs)

/** The "Compare across Processes" table's rows as the panel shows them: [process, status, where, summary, problems]. */
export async function processRows(webview) {
  return webview.locator('table.processes tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 5).map((td) => (td.textContent ?? '').trim())));
}

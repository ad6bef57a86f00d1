// Small helpers shared by the e2e scenarios (scenario.mjs, scenario-node.mjs): polling, the command palette,
// starting a named configuration, breakpoints, the extension's log, the
// webview's document and MCP calls. makeHelpers binds them to one page.
import { readFileSync, readdirSync, statSync } from 'node:fs';
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

  return { screenshot, until, runCommand, startConfiguration, setBreakpoint, webview, mcpEndpoint };
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

// ---- Variables view and the "Compare across Processes" panel (scenario-processes.mjs)

/** The Variables view's row of the variable `name`. */
export function variableRow(page, name) {
  return page.locator('.debug-pane .monaco-list-row', { hasText: new RegExp(`^\\s*${name}\\b`) }).first();
}

/** Waits for row in the Variables view, expanding Locals when VS Code left it collapsed. */
export async function showVariable(page, h, row, what) {
  await h.until(`${what} in the Variables view`, async () => {
    if (await row.isVisible()) return true;
    const locals = page.locator('.debug-pane .monaco-list-row', { hasText: /^\s*Locals\s*$/ }).first();
    if ((await locals.getAttribute('aria-expanded')) === 'false') await locals.click();
    return false;
  }, 60_000, 1_000);
}

/** Runs the Variables view's context-menu item `item` on row until done() says it took effect. */
export async function variablesMenu(page, h, row, item, done) {
  await h.until(`${item} in the Variables context menu`, async () => {
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

/** The "Compare across Processes" table's rows as the panel shows them: [process, status, where, summary, problems]. */
export async function processRows(webview) {
  return webview.locator('table.processes tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].slice(0, 5).map((td) => (td.textContent ?? '').trim())));
}

// JupyterLab 4 helpers for the e2e: the user's gestures on a notebook page
// (run a cell, read its prompt and output, toggle the debugger, click the
// breakpoint gutter), the Jupyter Server's REST API, and small checks.
import { join } from 'node:path';

export const LONG = 120_000;

export function makeLab(page, log, art, base, token) {
  let shot = 0;
  async function screenshot(name) {
    shot++;
    const p = join(art, `jupyterlab-${String(shot).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: p }).catch((e) => log(`screenshot ${name} failed: ${e.message}`));
    log(`screenshot ${p}`);
    return p;
  }

  /** Polls fn until it returns a truthy value or the time runs out. */
  async function until(what, fn, timeout = LONG, every = 250) {
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

  /** The Jupyter Server's REST API, with the token in a header. */
  async function api(path) {
    const res = await fetch(new URL(path, base), { headers: { Authorization: `token ${token}` } });
    if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status}`);
    return res.json();
  }

  const cell = (i) => page.locator('.jp-Notebook .jp-Cell').nth(i);

  /** The cell's execution count from its prompt ("[7]:"), null when not run, '*' while it runs. */
  async function prompt(i) {
    const t = (await cell(i).locator('.jp-InputPrompt').first().textContent()) ?? '';
    const m = t.match(/\[(\d+|\*)\]/);
    if (!m) return null;
    return m[1] === '*' ? '*' : Number(m[1]);
  }

  async function outputText(i) {
    return (await cell(i).locator('.jp-OutputArea').first().innerText().catch(() => '')) ?? '';
  }

  /** Selects cell i (command mode) and runs it without advancing (Ctrl+Enter). */
  async function startCell(i) {
    await cell(i).locator('.jp-InputPrompt').first().click();
    await page.keyboard.press('Control+Enter');
  }

  /** Runs cell i and waits for its new execution count; returns { count, output }. */
  async function runCell(i, marker, timeout = 60_000) {
    const before = await prompt(i);
    await startCell(i);
    const count = await until(`cell ${i} to run`, async () => {
      const p = await prompt(i);
      return typeof p === 'number' && p !== before ? p : null;
    }, timeout);
    const output = await until(`cell ${i}'s output${marker ? ` (${marker})` : ''}`, async () => {
      const t = await outputText(i);
      return !marker || t.includes(marker) ? t || ' ' : null;
    }, 30_000);
    return { count, output };
  }

  /** The JSON printed after `MARK ` in cell i's output. */
  async function printed(i, mark) {
    const t = await outputText(i);
    const line = t.split('\n').find((l) => l.startsWith(`${mark} `));
    if (!line) throw new Error(`cell ${i} printed no ${mark} line: ${t.slice(0, 300)}`);
    return JSON.parse(line.slice(mark.length + 1));
  }

  /** Every output area's text, in the page's order. */
  async function allOutputs() {
    return page.locator('.jp-Notebook .jp-Cell .jp-OutputArea').allInnerTexts();
  }

  /** Turns the notebook's debugger on with the bug icon of its toolbar. */
  async function enableDebugger() {
    const bug = page.locator('.jp-NotebookPanel-toolbar .jp-DebuggerBugButton').first();
    await bug.waitFor({ state: 'visible', timeout: 30_000 });
    const pressed = async () => (await bug.getAttribute('aria-pressed')) === 'true'
      || (await bug.locator('[aria-pressed="true"]').count()) > 0;
    await until('the debugger toggle to be enabled', async () => !(await bug.locator('button[disabled]').count()) && !(await bug.isDisabled().catch(() => false)), 30_000);
    if (!(await pressed())) await bug.click();
    await until('the debugger to be on (bug icon pressed)', pressed, 30_000);
  }

  /** Clicks the breakpoint gutter beside line `n` of cell i (its text `text`), as a user does; JupyterLab's Breakpoints panel must list it. */
  async function setBreakpoint(i, n, text) {
    const c = cell(i);
    const line = c.locator('.cm-line', { hasText: text }).first();
    const gutter = c.locator('.cm-gutter.cm-breakpoint-gutter').first();
    // :visible: the gutter's hidden spacer holds a breakpoint icon too.
    const icons = c.locator('.cm-breakpoint-icon:visible');
    const panel = page.locator('.jp-DebuggerBreakpoints').first();
    await gutter.waitFor({ state: 'visible', timeout: 30_000 });
    // The cell comes into view first: clicking focuses the editor, which
    // scrolls the notebook under a click measured before.
    await c.locator('.cm-line').last().scrollIntoViewIfNeeded();
    await line.click();
    await page.waitForTimeout(500);
    const lb = await line.boundingBox();
    const gb = await gutter.boundingBox();
    await page.mouse.click(gb.x + gb.width / 2, lb.y + lb.height / 2);
    await until(`a breakpoint beside "${text}"`, async () => (await icons.count()) > 0, 10_000, 200);
    const listed = await until(`the Breakpoints panel to list line ${n}`, async () => {
      const t = (await panel.innerText().catch(() => '')).trim();
      return t ? t : null;
    }, 10_000, 200);
    const lines = [...listed.matchAll(/^\s*(\d+)\s*$/gm)].map((m) => Number(m[1]));
    const now = await line.boundingBox();
    const boxes = await Promise.all((await icons.all()).map((x) => x.boundingBox()));
    const onLine = (b) => b && Math.abs(b.y + b.height / 2 - (now.y + now.height / 2)) < now.height / 2;
    if (JSON.stringify(lines) !== JSON.stringify([n]) || boxes.length !== 1 || !onLine(boxes[0])) {
      throw new Error(`the gutter click beside line ${n} gave breakpoints ${JSON.stringify(listed)} (icons at y ${boxes.map((b) => b && Math.round(b.y)).join(', ')}, the line at y ${Math.round(now.y)})`);
    }
    await page.keyboard.press('Escape'); // back to command mode
    return listed;
  }

  /** The debugger sidebar's Continue button (its call stack's toolbar). */
  async function pressContinue() {
    const candidates = [
      page.locator('.jp-DebuggerCallstack button[title^="Continue"]'),
      page.locator('.jp-SidePanel button[title^="Continue"]'),
      page.locator('button[title^="Continue"]'),
      page.locator('.jp-DebuggerPausedButton'),
    ];
    for (const b of candidates) {
      const v = b.first();
      if (await v.isVisible().catch(() => false)) {
        await v.click();
        return;
      }
    }
    throw new Error('no visible Continue button in the debugger sidebar');
  }

  /** Presses Continue until cell i has finished (its prompt is a number), within timeout. */
  async function continueUntilDone(i, timeout = 30_000) {
    await until(`cell ${i} to finish (Continue)`, async () => {
      if (typeof (await prompt(i)) === 'number') return true;
      await pressContinue().catch(() => {});
      await page.waitForTimeout(700);
      return typeof (await prompt(i)) === 'number';
    }, timeout, 300);
  }

  return { continueUntilDone, screenshot, until, api, cell, prompt, outputText, startCell, runCell, printed, allOutputs, enableDebugger, setBreakpoint, pressContinue };
}

/** Every {name, null_count} in an inspection result: its columns' null counts. */
export function nullCounts(result) {
  const out = {};
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      if (typeof v.name === 'string' && typeof v.null_count === 'number' && !(v.name in out)) out[v.name] = v.null_count;
      Object.values(v).forEach(walk);
    }
  };
  walk(result);
  return out;
}

/** Asserts a condition; the message says what was expected and what came. */
export function check(ok, what, got) {
  if (!ok) throw new Error(`CHECK FAILED: ${what}${got !== undefined ? ` (got ${typeof got === 'string' ? got : JSON.stringify(got)})` : ''}`);
}

/** IPython's own per-cell names (_i7, _7, _i, _ii, _iii, _, __, ___): they move with every cell. */
export const ipythonCacheName = (n) => /^(_i\d+|_\d+|_i{1,3}|_{1,3})$/.test(n);

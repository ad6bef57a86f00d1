// The Rust end-to-end scenario in a real VS Code (code-server), run by
// run.sh after the others in the same window: rust/src/main.rs (dapscope's
// native test program, built by run.sh with cargo) is debugged with a
// `dapscope` launch configuration whose adapter is lldb (LLVM's lldb-dap
// behind the sidecar's proxy, which adds the Rust toolchain's formatters).
// Checked: the stop, the Variables view's smart value of the Vec<f64>
// `prices` (the lldb probe's summary, read from memory), VS Code's debug
// hover with the same summary, the language hover (Alt) with the
// inspection, the webview from the Variables view with its statistics,
// and the data viewer's rows of the Vec, sorted by the lldb probe
// (descending: the program's largest value, 149, first at position 49).
// The steps shared with scenario-lldb-dap.mjs (the same program under the
// LLVM extension's debug type, bridged) are in util.mjs: openRustPrices,
// checkPricesViewer.
import { checkPricesViewer, openRustPrices, runScenario, wordBox } from './util.mjs';

await runScenario('scenario-rust', 'rust-', async (page, h, log) => {
  await h.runCommand('dapscope: Show Output');
  const { editor, MARK } = await openRustPrices(h, page);

  await h.startConfiguration('dapscope: Rust prices');
  // lldb-dap describes the stop as "breakpoint 1.1" (VS Code shows that in
  // the Call Stack instead of "Paused on breakpoint").
  await h.until('the stop (breakpoint 1.1)', async () => (await page.locator('.debug-toolbar').count()) > 0 && (await page.getByText(/Paused on breakpoint|^breakpoint \d+\.\d+$/).count()) > 0);
  log('stopped at the breakpoint');
  const row = await h.variableRow('prices', /^\s*Locals\b/);
  // Smart value: the lldb probe's summary in VS Code's own Variables view.
  // (A summary later than the sidecar's 50 ms budget leaves lldb-dap's own
  // value: then Locals is collapsed and expanded, a new variables request.)
  let reads = 0;
  await h.until('the smart value of prices', async () => {
    if (/Vec<f64> float64 \(1,000,\) · 1 NaN/.test((await row.textContent()) ?? '')) return true;
    if (++reads % 4 === 0) {
      const locals = page.locator('.debug-variables .monaco-list-row', { hasText: /^\s*Locals\b/ }).first();
      await locals.click();
      await page.waitForTimeout(300);
      await locals.click();
      log(`Variables view re-read (${reads / 4}): ${((await row.textContent().catch(() => '')) ?? '').trim().slice(0, 80)}`);
    }
    return false;
  }, 60_000, 1_000);
  log(`Variables view: ${((await row.textContent()) ?? '').trim().replace(/\s+/g, ' ').slice(0, 100)}`);
  await h.screenshot('stopped');

  // VS Code's debug hover (no modifier) with the summary.
  const debugHover = page.locator('.debug-hover-widget', { hasText: /Vec<f64> float64/ }).first();
  await h.until("VS Code's debug hover on prices", async () => {
    const box = await wordBox(editor, MARK, 'prices');
    await page.mouse.move(5, 600);
    await page.waitForTimeout(300);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
    return await debugHover.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false);
  }, 60_000, 500);
  log(`debug hover: ${((await debugHover.textContent()) ?? '').trim().replace(/\s+/g, ' ').slice(0, 100)}`);
  await h.screenshot('debug-hover-prices');
  await page.mouse.move(5, 600);

  await checkPricesViewer(h, page, log, editor, MARK, row);
  await h.stopSession();
});

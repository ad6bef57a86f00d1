// The inspection results the webview tests render: the Go side's golden
// results (inspect/testdata/golden/*.json, written from real debugpy and
// Delve sessions), so the view is tested on the model the sidecar sends.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { InspectResult } from '../src/types';

export const GOLDEN_DIR = resolve('..', 'inspect', 'testdata', 'golden');

function read(name: string): unknown {
  // Goldens hold "REF" for the adapter-assigned variables_reference.
  return JSON.parse(readFileSync(resolve(GOLDEN_DIR, `${name}.json`), 'utf8').replaceAll('"REF"', '1'));
}

/** A golden result, e.g. golden('dataframe'). */
export function golden(name: string): InspectResult {
  return read(name) as InspectResult;
}

/** A golden error (error_*.json hold the error alone) as the Result dapscope/inspect answers. */
export function goldenError(name: string, expression: string): InspectResult {
  return { name: expression, error: read(name) as InspectResult['error'] };
}

/**
 * A golden result that ran out of its time budget. Goldens are written with
 * the full budget (they must not depend on machine speed), so the partial
 * fields are added here.
 */
export function partial(name: string, timedOut: string[]): InspectResult {
  return { ...golden(name), partial: true, timed_out: timedOut };
}

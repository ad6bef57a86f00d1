// The webview's HTML shell: a strict Content-Security-Policy (no inline
// script or style; the one script carries a per-render nonce), the stylesheet
// and script from the extension's media, and an empty root the script fills.

import { escapeHtml } from './render';

export interface ShellOptions {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
}

export function makeNonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 32; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
  return s;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function webviewHtml(o: ShellOptions): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(o.styleUri)}">
<title>${escapeHtml(o.title)}</title>
</head>
<body>
<div class="toolbar" role="toolbar" aria-label="dapscope">
<button id="refresh" type="button" title="Inspect again (R)">Refresh</button>
<span id="status" class="status" aria-live="polite"></span>
</div>
<main id="root" aria-live="polite"><p class="loading">Inspecting…</p></main>
<script nonce="${escapeHtml(o.nonce)}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>`;
}

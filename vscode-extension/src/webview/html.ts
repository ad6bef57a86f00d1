// The webviews' HTML: one page (pageHtml) for the inspection view and the
// "Compare across processes" table: a strict Content-Security-Policy (no
// inline style; the one script carries a per-render nonce), the stylesheet
// from the extension's media; the inspection view's shell (webviewHtml) is
// that page with an empty root its script fills.

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

/** A webview page: the CSP, the stylesheet, a body, and one script (a file, or inline text), both under the nonce. */
export interface PageOptions {
  cspSource: string;
  nonce: string;
  styleUri: string;
  title: string;
  body: string;
  bodyClass?: string;
  script: { src: string } | { inline: string };
}

/** The page every dapscope webview is: strict CSP, the extension's stylesheet, one nonce'd script. */
export function pageHtml(o: PageOptions): string {
  const script = 'src' in o.script ? `<script nonce="${escapeHtml(o.nonce)}" src="${escapeHtml(o.script.src)}"></script>` : `<script nonce="${escapeHtml(o.nonce)}">\n${o.script.inline}\n</script>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(o.styleUri)}">
<title>${escapeHtml(o.title)}</title>
</head>
<body${o.bodyClass ? ` class="${escapeHtml(o.bodyClass)}"` : ''}>
${o.body}
${script}
</body>
</html>`;
}

/** The inspection webview's shell: a toolbar and an empty root its script (dist/webview.js) fills. */
export function webviewHtml(o: ShellOptions): string {
  return pageHtml({
    ...o,
    script: { src: o.scriptUri },
    body: `<div class="toolbar" role="toolbar" aria-label="dapscope">
<button id="refresh" type="button" title="Inspect again (R)">Refresh</button>
<span id="status" class="status" aria-live="polite"></span>
</div>
<main id="root" aria-live="polite"><p class="loading">Inspecting…</p></main>`,
  });
}

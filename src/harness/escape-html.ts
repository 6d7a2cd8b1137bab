// Escapes text for HTML element content and quoted attribute values: the one rule every HTML page of the
// library (bench report, review page, drift page, latency report, demo report) writes text with.

/**
 * Escapes `&`, `<`, `>`, `"` and `'`, so that any text shows as itself in an element or a quoted attribute.
 *
 * @example
 * escapeHtml('<script>alert(1)</script>') // '&lt;script&gt;alert(1)&lt;/script&gt;'
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

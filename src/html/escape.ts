/** Escaping for text placed in HTML (element content and double-quoted attributes). Pure, editor-free. */

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

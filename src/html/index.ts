/** HTML escaping for the webviews and reports (no project imports). */
export { escapeHtml } from './escape';

/* global document, window, MutationObserver, getComputedStyle -- a script for the workbench page, not Node */
/**
 * Loaded into the workbench page before VS Code's own scripts (Playwright's addInitScript) by
 * firstMinute.test.ts: what a person sees, read from the DOM — the active editor tab, where the keyboard focus
 * is, the status bar, the language status and its hover, notifications, squiggles, code lenses, the quick input —
 * and a record, kept from the first paint on, of every active tab, every tab set and every focus move, so the
 * test can tell afterwards whether anything but the person changed the active editor or took the focus.
 */
(() => {
  const visible = (el) => el.getClientRects().length > 0;
  const text = (el) => (el?.innerText ?? '').trim();
  const all = (selector) => [...document.querySelectorAll(selector)].filter(visible);

  const tabLabel = (tab) => text(tab.querySelector('.label-name')) || text(tab);
  /** The active tab of the active editor group. */
  const activeTab = () => {
    const tab = document.querySelector('.editor-group-container.active .tab.active');
    return tab ? tabLabel(tab) : '';
  };
  /** Every editor tab, in every group. */
  const tabs = () => all('.tabs-container .tab').map(tabLabel);

  /** Where the keyboard focus is, as a word: editor:<tab>, quick-input, notification, … */
  const focus = () => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'none';
    if (el.closest('.quick-input-widget')) return 'quick-input';
    if (el.closest('.notifications-toasts, .notifications-center')) return 'notification';
    if (el.closest('.editor-group-container')) {
      const group = el.closest('.editor-group-container');
      const tab = group.querySelector('.tab.active');
      const where = el.closest('.monaco-editor') ? 'editor' : 'editor-group';
      return `${where}:${tab ? tabLabel(tab) : ''}`;
    }
    if (el.closest('.part.statusbar')) return 'statusbar';
    if (el.closest('.part.sidebar')) return 'sidebar';
    if (el.closest('.part.panel')) return 'panel';
    return `other:${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]}`;
  };

  const history = { activeTabs: [], tabSets: [], focus: [] };
  const push = (list, value) => {
    if (list[list.length - 1] !== value) list.push(value);
  };
  const record = () => {
    push(history.activeTabs, activeTab());
    push(history.tabSets, JSON.stringify(tabs()));
    push(history.focus, focus());
  };
  const start = () => {
    new MutationObserver(record).observe(document.documentElement, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['class'],
    });
    document.addEventListener('focusin', record, true);
    document.addEventListener('focusout', () => setTimeout(record, 0), true);
    record();
  };
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start);

  /** The status bar items whose id contains `part` (extension items are `<extension id>.<item id>`). */
  const statusItems = () =>
    all('.statusbar-item').map((el) => ({
      id: el.id,
      text: text(el),
      className: String(el.className),
      icons: [...el.querySelectorAll('.codicon')].map(
        (i) => [...i.classList].find((c) => c.startsWith('codicon-') && c !== 'codicon-modifier-spin') ?? '',
      ),
    }));

  window.avapProbe = {
    history,
    activeTab,
    tabs,
    focus,
    statusItems,
    statusItem: (part) => statusItems().find((item) => item.id.includes(part)),
    /** The language status hover's entries (shown while the `{}` item is hovered). */
    languageHover: () =>
      all('.hover-language-status').map((el) => ({
        text: text(el.querySelector('.element')),
        severity: [...(el.querySelector('.severity')?.classList ?? [])].find((c) => /^sev\d$/.test(c)) ?? '',
        severityShown: el.querySelector('.severity')?.classList.contains('show') ?? false,
        /** The colour the theme gives the severity mark. */
        severityColor: el.querySelector('.severity') ? getComputedStyle(el.querySelector('.severity')).color : '',
      })),
    notifications: () => all('.notification-toast').map(text),
    squiggles: () => all('.editor-group-container.active .squiggly-error').length,
    codeLenses: () => all('.editor-group-container.active .codelens-decoration').map(text),
    /** The active editor's visible lines (Monaco renders spaces as no-break spaces). */
    editorText: () =>
      text(document.querySelector('.editor-group-container.active .view-lines')).replace(/\u00a0/g, ' '),
    quickInput: () => {
      const widget = document.querySelector('.quick-input-widget');
      if (!widget || !visible(widget)) return undefined;
      return {
        title: text(widget.querySelector('.quick-input-title')),
        rows: all('.quick-input-list .monaco-list-row').map((row) => ({
          text: text(row),
          focused: row.classList.contains('focused'),
        })),
        inputFocused: document.activeElement === widget.querySelector('.quick-input-box input'),
      };
    },
  };
})();

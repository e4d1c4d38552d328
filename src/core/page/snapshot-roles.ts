/**
 * The roles the snapshot gives a ref to: one list, shared by the content
 * script that emits them and by the tests that check every policy can act on
 * each of them (an emitted role no policy acts on is a seam between layers).
 */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  'button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton',
  'listbox', 'option', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'treeitem', 'clickable',
]);

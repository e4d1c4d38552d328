/**
 * What a form sends when `submitter` submits it (issue 30): the form's
 * submittable fields in tree order, as the HTML form-submission algorithm
 * builds its entry list — named, not disabled, checkboxes and radios only
 * when checked, every selected option, hidden inputs included — and, of the
 * buttons, only the submitter. Read from attributes and properties, never with
 * `new FormData(form)`, which fires the page's `formdata` listeners.
 * Secret values leave the page only as a digest (core/secrets/form-data.ts).
 */
import type { FormField } from '../../core/page/observation.ts';
import { formFieldValue } from '../../core/secrets/form-data.ts';
import { sha256Hex } from '../../core/secrets/keyed-digest.ts';

/** At most this many entries (the schema's cap); past it, the rest is one entry: its count and digest. */
const MAX_FIELDS = 100;
const MAX_NAME = 200;
const BUTTON_TYPES = new Set(['submit', 'image', 'button', 'reset']);

function disabled(el: Element): boolean {
  try {
    return el.matches(':disabled');
  } catch {
    return false;
  }
}

/** The entries one control adds, `submitter` being the element that submits (or null). */
function entriesOf(c: Element, submitter: Element | null): { value: string; inputType?: string; autocomplete?: string }[] {
  const tag = c.localName;
  const autocomplete = c.getAttribute('autocomplete') ?? undefined;
  if (tag === 'button') return c === submitter ? [{ value: (c as HTMLButtonElement).value }] : [];
  if (tag === 'select') return Array.from((c as HTMLSelectElement).selectedOptions, (o) => ({ value: o.value }));
  if (tag === 'textarea') return [{ value: (c as HTMLTextAreaElement).value, ...(autocomplete ? { autocomplete } : {}) }];
  if (tag !== 'input') return [];
  const input = c as HTMLInputElement;
  const type = input.type;
  if (BUTTON_TYPES.has(type)) return c === submitter && type === 'submit' ? [{ value: input.value, inputType: type }] : [];
  if ((type === 'checkbox' || type === 'radio') && !input.checked) return [];
  // A file's contents are not read; its name says which file.
  if (type === 'file') return Array.from(input.files ?? [], (f) => ({ value: f.name, inputType: type }));
  return [{ value: type === 'checkbox' || type === 'radio' ? input.value || 'on' : input.value, inputType: type, ...(autocomplete ? { autocomplete } : {}) }];
}

export function formDataOf(form: HTMLFormElement, submitter: Element | null): FormField[] {
  const out: FormField[] = [];
  for (const c of Array.from(form.elements)) {
    const name = c.getAttribute('name');
    if (name === null || name === '' || disabled(c)) continue;
    for (const entry of entriesOf(c, submitter)) out.push({ name: name.slice(0, MAX_NAME), value: formFieldValue({ name, ...entry }) });
  }
  if (out.length <= MAX_FIELDS) return out;
  // A long form is still compared whole: a row id past the cap must not drop out of the comparison.
  const rest = out.slice(MAX_FIELDS - 1);
  return [...out.slice(0, MAX_FIELDS - 1), { name: '…', value: `${rest.length} more #${sha256Hex(JSON.stringify(rest)).slice(0, 32)}` }];
}

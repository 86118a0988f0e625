/**
 * HTML built by tagged templates: every interpolated value is escaped unless it is itself Html (made by `html`
 * or, for markup built elsewhere, `raw`). Arrays are joined; null, undefined and false render nothing. Views are
 * typed TypeScript functions, so a renamed field is a compile error instead of an empty cell.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

export type Renderable = Html | string | number | boolean | null | undefined | readonly Renderable[];

function render(value: Renderable): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Renderable[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup that is already HTML (trusted: never user input). */
export function raw(markup: string): Html {
  return new Html(markup);
}

/** ` name="value"` pairs; false, null and undefined leave the attribute out, true writes it bare. */
export function attrs(values: Record<string, string | number | boolean | null | undefined>): Html {
  let out = '';
  for (const [name, value] of Object.entries(values)) {
    if (value === false || value === null || value === undefined) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  return new Html(out);
}

/**
 * Escaping by construction: `html` is a tagged template whose interpolations are escaped unless they
 * are already Html (built by `html` itself). Arrays are joined; null, undefined and false render as
 * nothing. Data never reaches the page any other way.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Interpolation = Html | string | number | boolean | null | undefined | Interpolation[];

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

function renderPart(part: Interpolation): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(renderPart).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...parts: Interpolation[]): Html {
  let out = strings[0] ?? '';
  parts.forEach((part, i) => {
    out += renderPart(part) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/** Markup the renderer itself wrote (CSS, the inline script): never data. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** Makes an id safe for an HTML id and a URL fragment: cycle ids are folder-safe already. */
export function anchorId(prefix: string, id: string): string {
  return `${prefix}-${id.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}

/** Data for the page's script, as JSON in a `<script type="application/json">` block: escaped so
 * nothing in it can end the block, open a comment or break a line in the script's view. */
export function scriptData(value: unknown): Html {
  return new Html(JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

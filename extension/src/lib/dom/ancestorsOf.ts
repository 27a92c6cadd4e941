/**
 * A field's nearest element ancestors, innermost first, crossing shadow roots to their hosts:
 * a form row and a little more, where a re-rendered field's replacement is looked for.
 * @example ancestorsOf(input) // [row, fieldset, form, main]
 */
export function ancestorsOf(field: Element, levels = 4): Element[] {
  const found: Element[] = [];
  let node: Node | null = field;
  while (node && found.length < levels) {
    node = node.parentNode ?? (node.getRootNode() as ShadowRoot).host ?? null;
    if (node && node.nodeType === 1) found.push(node as Element);
  }
  return found;
}

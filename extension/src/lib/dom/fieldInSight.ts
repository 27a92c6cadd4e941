type VisibilityCheck = (options: {
  opacityProperty: boolean;
  visibilityProperty: boolean;
}) => boolean;

/**
 * Whether a person can see the field now: drawn (not display:none, hidden or transparent, itself
 * or through an ancestor), bigger than the one-pixel "visually hidden" idiom, and at least partly
 * in the viewport (not off-screen, not a scroll away). A page script can fill a field the person
 * cannot see and tell of it (an input event of its own, a change found after a click): the
 * badge would leave the field the person is using for it, and with it the warning the person
 * needs. What a script puts in view (an address book's pick beside its button) is seen.
 * @example fieldInSight(document.getElementById("to")) // true
 */
export function fieldInSight(field: Element): boolean {
  const check = (field as Element & { checkVisibility?: VisibilityCheck }).checkVisibility;
  if (check && !check.call(field, { opacityProperty: true, visibilityProperty: true })) {
    return false;
  }
  const r = field.getBoundingClientRect();
  if (r.width < 2 || r.height < 2) return false;
  const win = field.ownerDocument.defaultView;
  if (!win) return true;
  return r.bottom > 0 && r.right > 0 && r.top < win.innerHeight && r.left < win.innerWidth;
}

/**
 * Source of a function (run with `this` bound to a container, in the page) that lists what a
 * reader cannot fully see inside it: an element reaching past the container's or the window's
 * left or right edge, text cut by an overflow it hides or spilling out of its box (a word too
 * long for the line), the container or a region in it scrolling sideways. Content of a sideways
 * scroll region of its own (a wide table, .table-wrap) counts as seen: it scrolls, as does a text
 * field's value.
 */
export const layoutProblemsFn = `function () {
  const problems = [];
  const name = (e) => e.dataset.testid || e.dataset.action || e.localName + (e.className ? "." + String(e.className).split(" ")[0] : "");
  const bounds = this.getBoundingClientRect();
  const left = Math.max(bounds.left, 0), right = Math.min(bounds.right, innerWidth);
  if (this.scrollWidth > this.clientWidth + 1 && this !== document.body)
    problems.push(name(this) + " scrolls sideways by " + (this.scrollWidth - this.clientWidth) + "px");
  if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1)
    problems.push("the page scrolls sideways by " + (document.documentElement.scrollWidth - document.documentElement.clientWidth) + "px");
  for (const element of this.querySelectorAll("*")) {
    if (element.closest(".table-wrap") && !element.classList.contains("table-wrap")) continue;
    const rect = element.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    if (rect.left < left - 1 || rect.right > right + 1)
      problems.push(name(element) + " reaches past the edge (" + Math.round(rect.left) + "–" + Math.round(rect.right) + " of " + Math.round(left) + "–" + Math.round(right) + ")");
    const style = getComputedStyle(element);
    const hides = (o) => o === "hidden" || o === "clip";
    const scrolls = (o) => o === "auto" || o === "scroll";
    if (scrolls(style.overflowX) && !element.classList.contains("table-wrap") && element.scrollWidth > element.clientWidth + 1)
      problems.push(name(element) + " scrolls sideways by " + (element.scrollWidth - element.clientWidth) + "px");
    // A word too long for its line (an address, a type name) spills out of a box that shows it.
    if (style.overflowX === "visible" && style.display !== "inline" && element.clientWidth > 0 && element.scrollWidth > element.clientWidth + 1)
      problems.push(name(element) + " spills its content sideways by " + (element.scrollWidth - element.clientWidth) + "px");
    // A text field longer than its box scrolls its own value under the caret, as every field does.
    const field = element.localName === "input" || element.localName === "textarea";
    if (hides(style.overflowX) && !field && element.scrollWidth > element.clientWidth + 1 && style.textOverflow !== "ellipsis")
      problems.push(name(element) + " cuts its content sideways");
    if (hides(style.overflowY) && element.scrollHeight > element.clientHeight + 1 && element.localName !== "select")
      problems.push(name(element) + " cuts its content at the bottom");
  }
  return problems;
}`;

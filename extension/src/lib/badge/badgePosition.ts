export type Rect = { top: number; left: number; bottom: number; right: number };
export type Size = { width: number; height: number };

const gap = 6;
const margin = 8;

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(max, min));
}

/**
 * Where the badge goes (fixed position).
 * - chip: beside the field's right edge, so it covers none of the page's own controls; when
 *   the viewport has no room there (a phone), just above the field's right end, where a form
 *   has its label row; at the very top of the viewport, inside the field's right end.
 * - card: beside the field when the viewport is wide enough (the form stays visible), else
 *   under the field, or above it when only that fits; otherwise wherever it shows most of
 *   itself (its own scroll region holds the rest). Always inside the viewport.
 * @example badgePosition(field.getBoundingClientRect(), { width: innerWidth, height: innerHeight }, size, "chip")
 */
export function badgePosition(
  field: Rect,
  viewport: Size,
  badge: Size,
  mode: "chip" | "card",
): { top: number; left: number } {
  const fieldHeight = field.bottom - field.top;
  if (mode === "chip") {
    // Centred on a one-line field; near the top of a tall one (a textarea).
    const top = field.top + clamp((fieldHeight - badge.height) / 2, 0, 6);
    const beside = field.right + gap;
    if (beside + badge.width <= viewport.width - 2) {
      return { top, left: clamp(beside, 0, viewport.width - badge.width) };
    }
    const left = clamp(
      Math.max(field.right - badge.width, field.left),
      0,
      viewport.width - badge.width,
    );
    const above = field.top - badge.height - 2;
    return above >= 0 ? { top: above, left } : { top, left: clamp(left - 4, 0, left) };
  }
  if (field.right + gap + badge.width <= viewport.width - margin) {
    return {
      top: clamp(field.top, margin, viewport.height - badge.height - margin),
      left: field.right + gap,
    };
  }
  const below = field.bottom + gap;
  const above = field.top - gap - badge.height;
  let top: number;
  if (below + badge.height <= viewport.height - margin) top = below;
  else if (above >= margin) top = above;
  else top = viewport.height - margin - badge.height;
  return {
    top: clamp(top, margin, viewport.height - badge.height - margin),
    left: clamp(field.left, margin, viewport.width - badge.width - margin),
  };
}

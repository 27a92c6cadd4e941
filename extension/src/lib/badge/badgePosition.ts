export type Rect = { top: number; left: number; bottom: number; right: number };
export type Size = { width: number; height: number };

const gap = 6;
const margin = 8;

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(max, min));
}

function overlap(a: Rect, b: Rect): number {
  const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return width > 0 && height > 0 ? width * height : 0;
}

/**
 * Where the badge goes (fixed position): the first of its candidate places that lies inside the
 * viewport and covers neither the field nor any of the page's controls (`obstacles`); when every
 * place covers something, the one that covers least (the field counting most: the person must
 * see what they are checking).
 * - chip: beside the field's right edge (moved inside the viewport when its edge cuts the
 *   field); above the field's right end, where a form has its label row; below it; inside the
 *   field's right end as a last resort.
 * - card: beside the field on the right; below it, aligned with its left edge; above it; beside
 *   it on the left; else pinned inside the viewport (its own scroll region holds the rest).
 * @example badgePosition(field.getBoundingClientRect(), { width: innerWidth, height: innerHeight }, size, "chip", controls)
 */
export function badgePosition(
  field: Rect,
  viewport: Size,
  badge: Size,
  mode: "chip" | "card",
  obstacles: readonly Rect[] = [],
): { top: number; left: number } {
  const { width, height } = badge;
  const fieldHeight = field.bottom - field.top;
  // The chip's place at the field's right end, kept on screen (a field wider than the viewport).
  const chipEnd = clamp(Math.max(field.right - width, field.left), 0, viewport.width - width - 2);
  // Beside the field on the right, past the controls that overlap there (a Send button right of
  // the field, a wider field in the next row): the badge moves right of them.
  const pastControls = (top: number) => {
    let left = field.right + gap;
    for (let hop = 0; hop < 3; hop++) {
      const box = { top, bottom: top + height, left, right: left + width };
      const hit = obstacles.filter((o) => overlap(box, o) > 0 && o.right > left);
      if (hit.length === 0) break;
      left = Math.max(...hit.map((o) => o.right)) + gap;
    }
    return { top, left };
  };
  const chipTop = field.top + clamp((fieldHeight - height) / 2, 0, 6);
  const chipTopInside = clamp(chipTop, 0, viewport.height - height);
  const besideTop = clamp(field.top, margin, viewport.height - height - margin);
  const candidates: Array<{ top: number; left: number }> =
    mode === "chip"
      ? [
          // Centred on a one-line field; near the top of a tall one (a textarea).
          { top: chipTop, left: field.right + gap },
          // In a tight column of fields, level with the field's top or bottom edge instead; above
          // or below its right end; else past the wider fields of the rows around it.
          { top: field.top, left: field.right + gap },
          { top: field.bottom - height, left: field.right + gap },
          // A field the viewport's edge cuts (Tab scrolls a field just into view, at the bottom):
          // still beside it, moved inside the viewport, rather than over the row above or below.
          { top: chipTopInside, left: field.right + gap },
          { top: field.top - height - 2, left: chipEnd },
          { top: field.bottom + 2, left: chipEnd },
          pastControls(chipTop),
          pastControls(chipTopInside),
        ]
      : [
          { top: besideTop, left: field.right + gap },
          pastControls(besideTop),
          {
            top: field.bottom + gap,
            left: clamp(field.left, margin, viewport.width - width - margin),
          },
          {
            top: field.top - gap - height,
            left: clamp(field.left, margin, viewport.width - width - margin),
          },
          {
            top: clamp(field.top, margin, viewport.height - height - margin),
            left: field.left - gap - width,
          },
        ];
  const edge = mode === "chip" ? 0 : margin;
  const inside = (c: { top: number; left: number }) =>
    c.top >= edge &&
    c.left >= edge &&
    c.top + height <= viewport.height - edge &&
    c.left + width <= viewport.width - (mode === "chip" ? 2 : margin);
  const covered = (c: { top: number; left: number }) => {
    const rect = { top: c.top, left: c.left, bottom: c.top + height, right: c.left + width };
    let area = overlap(rect, field) * 10;
    for (const obstacle of obstacles) area += overlap(rect, obstacle);
    return area;
  };
  let best: { top: number; left: number } | null = null;
  let bestArea = Number.POSITIVE_INFINITY;
  for (const candidate of candidates.filter(inside)) {
    const area = covered(candidate);
    if (area === 0) return candidate;
    if (area < bestArea) {
      best = candidate;
      bestArea = area;
    }
  }
  if (best) return best;
  // Nowhere fits whole: inside the viewport, as near the field as it can be.
  if (mode === "chip") {
    const left = clamp(Math.max(field.right - width, field.left), 0, viewport.width - width);
    return {
      top: field.top + clamp((fieldHeight - height) / 2, 0, 6),
      left: clamp(left - 4, 0, left),
    };
  }
  return {
    top: clamp(viewport.height - margin - height, margin, viewport.height - height - margin),
    left: clamp(field.left, margin, viewport.width - width - margin),
  };
}

/**
 * Whether an open card of `card` size has a place beside the field that lies inside the viewport
 * and covers neither the field nor any control: else its details belong in the side panel.
 * @example cardHasRoom(field.getBoundingClientRect(), { width: 360, height: 640 }, { width: 344, height: 320 }, controls) // false
 */
export function cardHasRoom(
  field: Rect,
  viewport: Size,
  card: Size,
  obstacles: readonly Rect[] = [],
): boolean {
  const { top, left } = badgePosition(field, viewport, card, "card", obstacles);
  const box = { top, left, bottom: top + card.height, right: left + card.width };
  if (box.top < 0 || box.left < 0 || box.bottom > viewport.height || box.right > viewport.width) {
    return false;
  }
  return overlap(box, field) === 0 && obstacles.every((o) => overlap(box, o) === 0);
}

export type Rect = { top: number; left: number; bottom: number; right: number };
export type Size = { width: number; height: number };

const gap = 4;

/**
 * Where the badge goes (fixed position): under the field, or above it when the viewport has no
 * room below; always inside the viewport.
 * @example badgePosition(field.getBoundingClientRect(), { width: innerWidth, height: innerHeight }, size)
 */
export function badgePosition(
  field: Rect,
  viewport: Size,
  badge: Size,
): { top: number; left: number } {
  const below = field.bottom + gap;
  const above = field.top - gap - badge.height;
  const top = below + badge.height <= viewport.height || above < 0 ? below : above;
  const left = Math.min(Math.max(field.left, 0), Math.max(viewport.width - badge.width, 0));
  return { top: Math.max(top, 0), left };
}

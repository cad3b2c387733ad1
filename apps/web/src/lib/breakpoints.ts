/**
 * Layout breakpoints (docs/product.md §2): mobile below 568 px, tablet 568–991 px, desktop 992 px and up.
 * CSS cannot read these constants, so style sheets repeat the numbers in `@media (min-width: …)`;
 * breakpoints.test.ts checks that every media query uses one of them.
 */
export const BREAKPOINTS = {
  /** First width of the tablet layout. */
  tablet: 568,
  /** First width of the desktop layout. */
  desktop: 992,
} as const;

/** The viewport widths the layout is designed and checked at (docs/product.md §2 option list). */
export const VIEWPORT_WIDTHS = [375, 568, 768, 992, 1200, 1440, 1921] as const;

export type Device = 'mobile' | 'tablet' | 'desktop';

/** Media queries matching each layout, for `window.matchMedia`. */
export const MEDIA_QUERIES: Record<Device, string> = {
  mobile: `(max-width: ${BREAKPOINTS.tablet - 0.02}px)`,
  tablet: `(min-width: ${BREAKPOINTS.tablet}px) and (max-width: ${BREAKPOINTS.desktop - 0.02}px)`,
  desktop: `(min-width: ${BREAKPOINTS.desktop}px)`,
};

/** The layout used at a viewport width in CSS pixels. */
export function deviceForWidth(width: number): Device {
  if (width >= BREAKPOINTS.desktop) return 'desktop';
  if (width >= BREAKPOINTS.tablet) return 'tablet';
  return 'mobile';
}

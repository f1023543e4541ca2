import type { CSSProperties } from 'react';

/** Width of the centred content column of the landing page. */
export const CONTENT_MAX_WIDTH = 1200;

export function contentColumnStyle(wide: boolean): CSSProperties {
  return {
    maxWidth: CONTENT_MAX_WIDTH,
    margin: '0 auto',
    paddingInline: wide ? 24 : 16,
  };
}

/** Responsive column spans for card grids. */
export const CARD_COLS_4 = { xs: 24, sm: 12, lg: 8, xl: 6 } as const;
export const CARD_COLS_3 = { xs: 24, sm: 12, lg: 8 } as const;
export const CARD_GUTTER: [number, number] = [16, 16];

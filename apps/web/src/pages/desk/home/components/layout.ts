/** Grid variants of the landing page's card lists (home.css): auto-fitted columns of a minimum width. */
export type CardGrid = 'default' | '2' | '3';

export function gridClass(grid: CardGrid = 'default'): string {
  return grid === 'default' ? 'slg-home-grid' : `slg-home-grid slg-home-grid--${grid}`;
}

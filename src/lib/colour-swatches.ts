/**
 * The filter bar's palette: the colours the library can be filtered by, in the
 * order they are offered. The database holds the same palette
 * (private.colour_palette) and decides which ads match a swatch: one of their
 * dominant colours is nearest to it, or almost as near (docs/decisions/0038).
 */
export const COLOUR_SWATCHES = [
  { id: 'red', name: 'Red', hex: '#d7263d' },
  { id: 'orange', name: 'Orange', hex: '#f08a24' },
  { id: 'yellow', name: 'Yellow', hex: '#f4d03f' },
  { id: 'green', name: 'Green', hex: '#3a9d5d' },
  { id: 'blue', name: 'Blue', hex: '#2e6fd8' },
  { id: 'purple', name: 'Purple', hex: '#7d4cdb' },
  { id: 'pink', name: 'Pink', hex: '#ee7fb4' },
  { id: 'brown', name: 'Brown', hex: '#8a5a34' },
  { id: 'beige', name: 'Beige', hex: '#e6d3b3' },
  { id: 'black', name: 'Black', hex: '#141414' },
  { id: 'grey', name: 'Grey', hex: '#8e8e8e' },
  { id: 'white', name: 'White', hex: '#f7f7f5' },
] as const;

export type ColourSwatchId = (typeof COLOUR_SWATCHES)[number]['id'];
export const COLOUR_SWATCH_IDS = COLOUR_SWATCHES.map((swatch) => swatch.id) as [ColourSwatchId, ...ColourSwatchId[]];

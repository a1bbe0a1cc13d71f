// Shared by the widget and the console's preview of it.

/** Black or white, whichever contrasts more with the embed's colour (WCAG contrast ratio). */
export function textColorOn(hex: string): string {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  // Contrast with white (1.05 / (L + 0.05)) equals contrast with black ((L + 0.05) / 0.05) at L ≈ 0.179.
  return luminance > 0.179 ? '#1a1b1e' : '#ffffff';
}

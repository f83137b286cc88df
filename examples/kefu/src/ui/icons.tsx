/**
 * Small line icons (inline SVG, decorative: the buttons that hold them carry the label).
 * @module
 */
import type { ReactElement } from 'react';

const base = { width: 22, height: 22, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 1.8, strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const, 'aria-hidden': true, focusable: false };

/** The icons by name. */
export type IconName = 'smile' | 'attach' | 'search' | 'more' | 'at' | 'close';

/** One icon. */
export function Icon({ name }: { name: IconName }): ReactElement {
  switch (name) {
    case 'smile':
      return (
        <svg {...base}>
          <circle cx="12" cy="12" r="9" />
          <path d="M8.5 14.5a4.5 4.5 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
        </svg>
      );
    case 'attach':
      return (
        <svg {...base}>
          <path d="M20 11.5l-7.8 7.8a5 5 0 0 1-7.1-7.1l8.2-8.2a3.3 3.3 0 0 1 4.7 4.7l-8.2 8.2a1.7 1.7 0 0 1-2.4-2.4l7.5-7.5" />
        </svg>
      );
    case 'search':
      return (
        <svg {...base}>
          <circle cx="11" cy="11" r="6.5" />
          <path d="M16 16l4.5 4.5" />
        </svg>
      );
    case 'more':
      return (
        <svg {...base}>
          <path d="M5 12h.01M12 12h.01M19 12h.01" strokeWidth={3} />
        </svg>
      );
    case 'at':
      return (
        <svg {...base}>
          <circle cx="12" cy="12" r="3.5" />
          <path d="M15.5 12v1.5a2.5 2.5 0 0 0 5 0V12a8.5 8.5 0 1 0-3.4 6.8" />
        </svg>
      );
    default:
      return (
        <svg {...base}>
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      );
  }
}

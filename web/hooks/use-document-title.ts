import { useEffect } from 'react';

/** Sets the tab title to "{title} · Digi Library" while the screen is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Digi Library` : 'Digi Library';
  }, [title]);
}

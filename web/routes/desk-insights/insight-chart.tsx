import { useEffect, useRef } from 'react';

/** Draws a chart: given the container's width, answers the SVG (or figure) to show. */
export type DrawChart = (width: number) => SVGSVGElement | HTMLElement;

/**
 * A chart drawn by Observable Plot (decision 041) into a figure, redrawn when its data or the
 * figure's width changes. The figure is an image to assistive technology, named by `label`;
 * its numbers are in the table beside it, which is how keyboard and screen-reader users read it.
 */
export function InsightChart({ label, draw }: { label: string; draw: DrawChart }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    const render = () => {
      try {
        const chart = draw(Math.max(280, container.clientWidth || 640));
        // The figure speaks for the drawing (its label, and the table beside it): Plot's labels on
        // its inner groups would be read piecemeal, and on a plain <g> they are not allowed.
        for (const labelled of chart.querySelectorAll('[aria-label], [aria-description]')) {
          labelled.removeAttribute('aria-label');
          labelled.removeAttribute('aria-description');
        }
        chart.setAttribute('aria-hidden', 'true');
        container.replaceChildren(chart);
      } catch {
        // A chart that cannot be drawn (an old browser, a test's DOM) leaves its table to speak.
        container.replaceChildren();
      }
    };
    render();
    if (typeof ResizeObserver === 'undefined') return;
    let width = container.clientWidth;
    const observer = new ResizeObserver(() => {
      if (container.clientWidth === width) return;
      width = container.clientWidth;
      render();
    });
    observer.observe(container);
    return () => observer.disconnect();
  }, [draw]);
  return <div ref={ref} role="img" aria-label={label} className="insight-chart" />;
}

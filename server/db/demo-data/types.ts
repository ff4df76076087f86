import type { Insertable } from 'kysely';
import type { ItemsTable } from '../schema.ts';

/**
 * Copies a demo book has at one location: `unavailable` of them out on loan and `inRepair` of
 * them in repair, the rest on the shelf.
 */
export interface DemoHoldings {
  copies: number;
  unavailable?: number;
  inRepair?: number;
  /** Where they stand: `Main library` when not given. */
  location?: string;
}

/** A demo catalogue item; a book may hold copies at one location or at several. */
export type DemoItem = Omit<Insertable<ItemsTable>, 'source'> & {
  holdings?: DemoHoldings | DemoHoldings[];
};

/** The locations the demo books stand at, besides the default `Main library`. */
export const DEMO_LOCATIONS = {
  main: 'Main library, 2nd floor',
  science: 'Science Library',
  law: 'Law Library',
  reserve: 'Reserve desk',
} as const;

/** A demo item's holdings, one entry per location (none for an item without copies). */
export function demoHoldings(item: DemoItem): DemoHoldings[] {
  if (!item.holdings) return [];
  return Array.isArray(item.holdings) ? item.holdings : [item.holdings];
}

/** An instant as the API sends it: ISO 8601 in UTC. Drivers hand timestamps over as Dates. */
export function isoInstant(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

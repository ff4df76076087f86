import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Role } from '#contract/http/users.ts';

/** A caller of the role matrix: a guest or a signed-in role. */
export type Who = 'guest' | Role;
export const WHO: readonly Who[] = ['guest', 'student', 'faculty', 'librarian'];

/** Rows of one markdown table of docs/role-matrix.md: the first cell, then one cell per role. */
export function matrixRows(heading: string): { call: string; cells: Record<Who, string> }[] {
  const text = readFileSync(path.resolve(import.meta.dirname, '../../docs/role-matrix.md'), 'utf8');
  const section = text.split(/^## /m).find((part) => part.startsWith(heading));
  if (!section) throw new Error(`docs/role-matrix.md has no "## ${heading}" section`);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      return {
        call: cells[1]!.replace(/`/g, ''),
        cells: { guest: cells[2]!, student: cells[3]!, faculty: cells[4]!, librarian: cells[5]! },
      };
    });
}

import { describe, expect, it } from 'vitest';
import { impersonatesStaff, nameSkeleton } from './names.ts';

describe('name skeletons (Unicode TR39, case and width folded)', () => {
  it.each([
    ['Librarian99', 'Libr\u0430rian99'], // Cyrillic а
    ['Librarian99', 'LIBRARIAN99'],
    ['Librarian99', 'Ｌｉｂｒａｒｉａｎ９９'], // full width
    ['Librarian99', '𝐋𝐢𝐛𝐫𝐚𝐫𝐢𝐚𝐧𝟗𝟗'], // mathematical bold
    ['General', 'Gen\u200Beral'], // a zero-width space, should one ever reach it
    ['General', 'G\u0435neral'], // Cyrillic е
    ['Paypal', '𝔭𝒶ỿ𝕡𝕒ℓ'],
    ['bob', 'b0b'], // '0' is a capital 'O', and case is folded
    ['Straße', 'STRASSE'],
    ['Ada', 'Αda'], // Greek capital alpha
    ['modern', 'rnodern'],
  ])('%s and %s share one', (a, b) => {
    expect(nameSkeleton(a)).toBe(nameSkeleton(b));
  });

  it.each([
    ['Ada', 'Ada L'],
    ['José', 'Jose'],
    ['Ian', 'lan'],
    ['Physics 1', 'Physics 2'],
  ])('%s and %s stay apart', (a, b) => {
    expect(nameSkeleton(a)).not.toBe(nameSkeleton(b));
  });
});

describe('names kept for staff', () => {
  it.each([
    'Desk Librarian',
    'Libr\u0430rian99',
    'DeskLibrarian',
    'Lib rarian',
    'THE MODERATOR',
    'Administrator',
    'Admin',
    'Site admin',
    'SiteAdmin',
    'ＡＤＭＩＮ',
    '\u0410dmin', // Cyrillic А
    'Staff',
    'Library staff 2',
    'Mods',
  ])('%s passes for staff', (name) => {
    expect(impersonatesStaff(name)).toBe(true);
  });

  it.each([
    'Ada L',
    'Badminton club',
    'Business administration',
    'Flagstaff',
    'Staffordshire history',
    'Modern art',
    'General',
  ])('%s does not', (name) => {
    expect(impersonatesStaff(name)).toBe(false);
  });

  it("keeps the library's name too, where the caller says so", () => {
    expect(impersonatesStaff('Digi Library fan')).toBe(false);
    expect(impersonatesStaff('Digi Library fan', ['Digi Library'])).toBe(true);
    expect(impersonatesStaff('DigiLibrary', ['Digi Library'])).toBe(true);
    expect(impersonatesStaff('Digital library', ['Digi Library'])).toBe(false);
    // A library name with no letters keeps nothing, rather than everything.
    expect(impersonatesStaff('Ada', ['42'])).toBe(false);
  });
});

import type { LibraryInfo } from '#contract/http/library.ts';
import type { Config } from '../config.ts';

/** The library's public identity, from the configuration. */
export function presentLibraryInfo(library: Config['library']): LibraryInfo {
  return {
    name: library.name,
    address: library.address,
    phone: library.phone,
    email: library.email,
    hours: library.hours,
    hoursNote: library.hoursNote,
    social: [
      { network: 'facebook', label: 'Facebook', url: library.social.facebook },
      { network: 'x', label: 'X (Twitter)', url: library.social.x },
      { network: 'instagram', label: 'Instagram', url: library.social.instagram },
      { network: 'linkedin', label: 'LinkedIn', url: library.social.linkedin },
    ],
  };
}

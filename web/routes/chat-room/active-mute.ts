import { useEffect, useState } from 'react';
import type { ModerationNotice } from '#contract/socket/chat.ts';

/** The mute `notice` announces, while it holds at `now` (ms); else null. Exported for tests. */
export function activeMute(notice: ModerationNotice | null, now: number): ModerationNotice | null {
  if (notice?.action !== 'mute') return null;
  return Date.parse(notice.endsAt) > now ? notice : null;
}

/**
 * The mute in force for this person in the room (decision 044): from a `moderation_notice`, sent
 * when a moderator mutes them and again on joining while muted; null once it ends (the screen
 * re-renders at its end time) or a `lift` notice replaces it.
 */
export function useActiveMute(notice: ModerationNotice | null): ModerationNotice | null {
  const [now, setNow] = useState(() => Date.now());
  const mute = activeMute(notice, now);
  useEffect(() => {
    if (!mute) return;
    // Timers past about 24.8 days overflow; mutes last a day at most.
    const wait = Math.max(0, Date.parse(mute.endsAt) - Date.now()) + 50;
    const timer = setTimeout(() => setNow(Date.now()), wait);
    return () => clearTimeout(timer);
  }, [mute]);
  return mute;
}

import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { RoomMember } from '#contract/socket/chat.ts';
import { matchMembers, mentionQuery } from './mention-autocomplete.tsx';
import { MessageComposer } from './message-composer.tsx';

/*
 * The composer's `@` list (decision 042): typing `@` asks for the room's members once and lists
 * those whose name starts with the letters typed; ↑ ↓ move, Enter or Tab picks, Escape closes,
 * and while the list is open Enter picks rather than sends.
 */

const MEMBERS: RoomMember[] = [
  { userId: 'u1', name: 'Ada' },
  { userId: 'u2', name: 'Alan' },
  { userId: 'u3', name: 'Grace' },
  { userId: 'u4', name: 'Barbara Liskov' },
];

function Composer({ onSend, onNeed }: { onSend: (text: string) => void; onNeed: () => void }) {
  const [members, setMembers] = useState<RoomMember[] | null>(null);
  return (
    <MessageComposer
      disabled={false}
      onSend={async (text) => {
        onSend(text);
        return { clear: true };
      }}
      mentions={{
        members,
        onNeed: () => {
          onNeed();
          setMembers(MEMBERS);
        },
        selfId: 'u1',
      }}
    />
  );
}

function setup() {
  const onSend = vi.fn();
  const onNeed = vi.fn();
  render(<Composer onSend={onSend} onNeed={onNeed} />);
  const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
  const type = (text: string) => {
    fireEvent.change(box, { target: { value: text, selectionStart: text.length } });
    box.setSelectionRange(text.length, text.length);
    fireEvent.select(box);
  };
  return { box, type, onSend, onNeed };
}

describe('the @ list', () => {
  it('reads the @ being typed, not one inside a word or across a line', () => {
    expect(mentionQuery('hi @Al', 6)).toEqual({ at: 3, query: 'Al' });
    expect(mentionQuery('@', 1)).toEqual({ at: 0, query: '' });
    expect(mentionQuery('mail ada@uni', 12)).toBeNull();
    expect(mentionQuery('@Al\nthere', 9)).toBeNull();
    expect(matchMembers(MEMBERS, 'a', 'u1').map((m) => m.name)).toEqual([
      'Alan',
      'Grace',
      'Barbara Liskov',
    ]);
  });

  it('lists the members matching the letters after @, without the person typing', () => {
    const { box, type, onNeed } = setup();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.getAttribute('aria-autocomplete')).toBe('list');
    type('hello @');
    expect(onNeed).toHaveBeenCalled();
    const list = screen.getByRole('listbox', { name: 'People to mention' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['@Alan', '@Grace', '@Barbara Liskov']);
    type('hello @gr');
    expect(
      within(screen.getByRole('listbox'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['@Grace']);
    expect(box.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    expect(screen.getByRole('status').textContent).toMatch(/1 person to mention/);
  });

  it('moves with the arrows and picks with Enter, which then does not send', () => {
    const { box, type, onSend } = setup();
    type('hi @');
    const options = () => screen.getAllByRole('option');
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[0]!.id);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(options()[1]!.getAttribute('aria-selected')).toBe('true');
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[1]!.id);
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    // Round to the last.
    expect(options()[2]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('hi @Barbara Liskov ');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('picks with Tab or a click, and closes with Escape until another @', () => {
    const { box, type } = setup();
    type('@al');
    fireEvent.keyDown(box, { key: 'Tab' });
    expect(box.value).toBe('@Alan ');
    type('@Alan and @g');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.hasAttribute('aria-activedescendant')).toBe(false);
    type('@Alan and @gr');
    expect(screen.queryByRole('listbox')).toBeNull();
    type('@Alan and @gr @');
    fireEvent.click(within(screen.getByRole('listbox')).getByText('@Grace'));
    expect(box.value).toBe('@Alan and @gr @Grace ');
  });

  it('sends with Enter when no list is open', () => {
    const { box, type, onSend } = setup();
    type('@nobody here');
    expect(screen.queryByRole('listbox')).toBeNull();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('@nobody here');
  });
});

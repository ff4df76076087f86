import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import {
  ADMIN_USERS_QUERY_MAX,
  DISABLE_CONSEQUENCE,
  type AdminUserUpdate,
  type ManagedUser,
} from '#contract/http/admin-users.ts';
import { ROLES, type Role } from '#contract/http/users.ts';
import { useChangePerson, usePeople } from '../../api/admin-users.ts';
import { useCurrentUser } from '../../api/session.ts';
import { Pager } from '../../components/catalogue/pager.tsx';
import { FormMessage, SelectField, formStyles } from '../../components/forms/fields.tsx';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { StatusBadge } from '../../components/records/status-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from './desk-people.module.css';

/** Each role as the screen names it. */
export const ROLE_LABELS: Record<Role, string> = {
  student: 'Student',
  faculty: 'Faculty',
  librarian: 'Librarian',
};

const ROLE_FILTERS = [
  { value: '', label: 'Every role' },
  ...ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] })),
];

/** What a librarian is about to do to one person. */
type Pending = {
  person: ManagedUser;
  action: 'role' | 'disable' | 'enable' | 'approve' | 'decline';
};

/** `/desk/people`: librarians find people, change their role, disable or re-enable them. */
export function DeskPeoplePage() {
  useDocumentTitle('People');
  // The search sits in the URL, so a reload or a shared link shows the same people.
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const roleParam = params.get('role') ?? '';
  const roleFilter = (ROLES as readonly string[]).includes(roleParam) ? (roleParam as Role) : '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const people = usePeople({ q, role: roleFilter, page });
  const me = useCurrentUser().data;
  const [text, setText] = useState(q);
  const [pending, setPending] = useState<Pending | null>(null);
  const [role, setRole] = useState<Role>('student');
  const change = useChangePerson();
  const [message, setMessage] = useState('');
  const messageRef = useRef<HTMLParagraphElement>(null);
  const searchId = useId();

  const search = (next: { q?: string; role?: string; page?: number }) => {
    const values = new URLSearchParams();
    const nextQ = next.q ?? q;
    const nextRole = next.role ?? roleFilter;
    if (nextQ) values.set('q', nextQ);
    if (nextRole) values.set('role', nextRole);
    if ((next.page ?? 1) > 1) values.set('page', String(next.page));
    setParams(values, { replace: true });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setMessage('');
    search({ q: text.trim() });
  };

  const onDone = (text: string) => {
    setPending(null);
    setMessage(text);
  };

  // Once the dialog has closed (its own effect, which runs first, hands the focus back to the
  // button that opened it), the announcement of what changed takes the focus.
  useEffect(() => {
    if (message && !pending) messageRef.current?.focus();
  }, [message, pending]);

  const pageCount = people.data ? Math.ceil(people.data.total / people.data.pageSize) : 0;

  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="People"
        lead="Find anyone by name, e-mail or student ID; change their role, or disable an account that should no longer be used. Faculty sign-ups waiting for approval come first."
      />
      <form role="search" className={styles.search} onSubmit={onSubmit}>
        <div className={`${formStyles.field} ${styles.searchField}`}>
          <label htmlFor={searchId} className={formStyles.label}>
            Name, e-mail or student ID
          </label>
          <input
            id={searchId}
            type="search"
            className={formStyles.input}
            maxLength={ADMIN_USERS_QUERY_MAX}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <div className={styles.roleField}>
          <SelectField
            label="Role"
            options={ROLE_FILTERS}
            value={roleFilter}
            onChange={(event) => search({ q: text.trim(), role: event.target.value })}
          />
        </div>
        <Button type="submit" className={styles.searchButton}>
          Search
        </Button>
      </form>
      <p ref={messageRef} tabIndex={-1} role="status" className={styles.message}>
        {message}
      </p>
      {people.isPending ? (
        <p role="status">Loading people…</p>
      ) : people.isError ? (
        <FormMessage>People could not be loaded: {people.error.message}</FormMessage>
      ) : people.data.users.length === 0 ? (
        <p className={styles.empty}>Nobody matches this search.</p>
      ) : (
        <>
          <table className={styles.table}>
            <caption className={styles.caption}>
              {people.data.total === 1 ? '1 person' : `${people.data.total} people`}
              {q ? ` matching “${q}”` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Student ID</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {people.data.users.map((person) => (
                <PersonRow
                  key={person.id}
                  person={person}
                  isMe={person.id === me?.id}
                  onAction={(action) => {
                    // A new question starts clean: the person's own role, no refusal left over.
                    setMessage('');
                    setRole(person.role);
                    change.reset();
                    setPending({ person, action });
                  }}
                />
              ))}
            </tbody>
          </table>
          <Pager
            page={page}
            count={pageCount}
            label="Pages of people"
            onChange={(next) => search({ page: next })}
          />
        </>
      )}
      <ChangeDialog
        pending={pending}
        role={role}
        onRole={setRole}
        change={change}
        onClose={() => setPending(null)}
        onDone={onDone}
      />
    </div>
  );
}

function PersonRow({
  person,
  isMe,
  onAction,
}: {
  person: ManagedUser;
  isMe: boolean;
  onAction: (action: Pending['action']) => void;
}) {
  return (
    <tr>
      <th scope="row" data-label="Name">
        {person.name || '—'}
        {isMe ? <span className={styles.you}> (you)</span> : null}
      </th>
      <td data-label="E-mail" className={styles.email}>
        {person.email}
      </td>
      <td data-label="Student ID">{person.studentId || '—'}</td>
      <td data-label="Role">
        {ROLE_LABELS[person.role]}
        {person.pendingFaculty ? (
          <>
            {' '}
            <StatusBadge label="Asks to be faculty" tone="progress" />
          </>
        ) : null}
      </td>
      <td data-label="Status">
        {person.disabled ? (
          <StatusBadge label="Disabled" tone="negative" />
        ) : (
          <StatusBadge label="Active" tone="positive" />
        )}
      </td>
      <td className={styles.actions}>
        <div className={styles.actionButtons}>
          {person.pendingFaculty ? (
            <>
              <Button
                aria-label={`Approve ${person.name || person.email} as faculty`}
                onClick={() => onAction('approve')}
              >
                Approve
              </Button>
              <Button
                variant="outline"
                aria-label={`Decline ${person.name || person.email} as faculty`}
                onClick={() => onAction('decline')}
              >
                Decline
              </Button>
            </>
          ) : null}
          <Button
            variant="outline"
            aria-label={`Change role of ${person.name || person.email}`}
            onClick={() => onAction('role')}
          >
            Change role
          </Button>
          {person.disabled ? (
            <Button
              variant="outline"
              aria-label={`Re-enable ${person.name || person.email}`}
              onClick={() => onAction('enable')}
            >
              Re-enable
            </Button>
          ) : (
            <Button
              variant="danger"
              aria-label={`Disable ${person.name || person.email}`}
              onClick={() => onAction('disable')}
            >
              Disable
            </Button>
          )}
        </div>
      </td>
    </tr>
  );
}

const roleWord = (role: Role) => ROLE_LABELS[role].toLowerCase();

/** Each action's question, its confirming button, what it sends and what it says when done. */
const ACTIONS: Record<
  Pending['action'],
  {
    title: (who: string) => string;
    confirm: string;
    patch: (role: Role) => AdminUserUpdate;
    done: (who: string, changed: ManagedUser, before: ManagedUser) => string;
  }
> = {
  role: {
    title: (who) => `Change the role of ${who}`,
    confirm: 'Change role',
    patch: (role) => ({ role }),
    done: (who, changed, before) =>
      changed.role === before.role
        ? `${who} stays ${roleWord(changed.role)}.`
        : `${who} is now ${roleWord(changed.role)}.`,
  },
  disable: {
    title: (who) => `Disable ${who}’s account?`,
    confirm: 'Disable account',
    patch: () => ({ disabled: true }),
    done: (who) => `${who}’s account is disabled; their sessions have ended.`,
  },
  enable: {
    title: (who) => `Re-enable ${who}’s account?`,
    confirm: 'Re-enable account',
    patch: () => ({ disabled: false }),
    done: (who) => `${who}’s account is enabled again.`,
  },
  approve: {
    title: (who) => `Approve ${who} as faculty?`,
    confirm: 'Approve as faculty',
    patch: () => ({ facultyRequest: 'approved' }),
    done: (who) => `${who} is now faculty.`,
  },
  decline: {
    title: (who) => `Decline ${who}’s faculty sign-up?`,
    confirm: 'Decline',
    patch: () => ({ facultyRequest: 'declined' }),
    done: (who) => `${who} stays a student; their faculty sign-up is declined.`,
  },
};

/** Confirms one change and shows the server's refusal, if any, where the librarian is looking. */
function ChangeDialog({
  pending,
  role,
  onRole,
  change,
  onClose,
  onDone,
}: {
  pending: Pending | null;
  role: Role;
  onRole: (role: Role) => void;
  change: ReturnType<typeof useChangePerson>;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const person = pending?.person;
  const who = person ? person.name || person.email : '';

  const wording = pending ? ACTIONS[pending.action] : null;

  const confirm = () => {
    if (!pending || !person || !wording) return;
    change.mutate(
      { id: person.id, patch: wording.patch(role) },
      { onSuccess: (changed) => onDone(wording.done(who, changed, person)) },
    );
  };

  return (
    <Dialog
      open={pending !== null}
      title={wording?.title(who) ?? ''}
      alert={pending?.action === 'disable'}
      onClose={onClose}
      actions={
        <>
          <Button variant="outline" data-autofocus onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant={pending?.action === 'disable' ? 'danger' : 'primary'}
            disabled={change.isPending}
            onClick={confirm}
          >
            {wording?.confirm}
          </Button>
        </>
      }
    >
      {pending?.action === 'role' ? (
        <>
          <p>
            {who} is {ROLE_LABELS[pending.person.role].toLowerCase()} now. What they may open
            changes on their next request.
          </p>
          <SelectField
            label="New role"
            options={ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))}
            value={role}
            onChange={(event) => onRole(event.target.value as Role)}
          />
        </>
      ) : pending?.action === 'disable' ? (
        <p>{DISABLE_CONSEQUENCE} You can re-enable the account later.</p>
      ) : pending?.action === 'approve' ? (
        <p>
          They signed up as faculty with {pending.person.email}. Approved, they can publish course
          materials and handle requests from their next request on.
        </p>
      ) : pending?.action === 'decline' ? (
        <p>They keep a student account and can use everything students can.</p>
      ) : pending ? (
        <p>
          They can sign in again; their role stays {ROLE_LABELS[pending.person.role].toLowerCase()}.
        </p>
      ) : null}
      {change.isError ? <FormMessage>{change.error.message}</FormMessage> : null}
    </Dialog>
  );
}

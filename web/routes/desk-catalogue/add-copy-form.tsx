import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  COPY_LOCATION_MAX,
  COPY_NOTE_MAX,
  COPY_STATUS_LABELS,
  COPY_STATUSES,
  copyCreateSchema,
} from '#contract/http/copies.ts';
import { ApiError } from '../../api/client.ts';
import { useAddCopy } from '../../api/items.ts';
import { FormMessage, formStyles, SelectField, TextField } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './desk-catalogue.module.css';

type CopyForm = z.input<typeof copyCreateSchema>;
type CopyValues = z.output<typeof copyCreateSchema>;

const STATUS_OPTIONS = COPY_STATUSES.map((status) => ({
  value: status,
  label: COPY_STATUS_LABELS[status],
}));

const EMPTY: Required<CopyForm> = { barcode: '', location: '', status: 'available', note: '' };

/**
 * Adds copies of an item. A barcode scanner acts as a keyboard: it types the code, then Enter,
 * which submits. Location, status and note stay for the next copy; the barcode box empties and
 * keeps the focus, so a pile of copies is a series of scans. A refused barcode stays selected
 * in the box, so the next scan replaces it.
 */
export function AddCopyForm({ itemId }: { itemId: string }) {
  const add = useAddCopy(itemId);
  const [added, setAdded] = useState('');
  // A refusal the barcode field already explains is only read out, not shown a second time.
  const [failure, setFailure] = useState({ text: '', shown: true });
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    getValues,
    setValue,
    formState: { errors },
  } = useForm<CopyForm, unknown, CopyValues>({
    resolver: zodResolver(copyCreateSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = async (copy: CopyValues) => {
    setFailure({ text: '', shown: true });
    try {
      const saved = await add.mutateAsync(copy);
      setAdded(
        `Added copy ${saved.barcode}${saved.location ? ` at ${saved.location}` : ''}. Scan or type the next barcode.`,
      );
      // A scan typed while this one was being saved stays where it is.
      if (getValues('barcode').trim() === copy.barcode) setValue('barcode', '');
      setFocus('barcode');
    } catch (error) {
      setAdded('');
      if (error instanceof ApiError && error.fromServer) {
        for (const field of error.fieldErrors) {
          const name = field.path.split('.')[0] as keyof CopyForm;
          if (name in EMPTY) setError(name, { message: field.message });
        }
        // A conflict is always the barcode: another copy carries it.
        if (error.status === 409) setError('barcode', { message: error.message });
        setFailure({
          text: `Copy ${copy.barcode} was not added: ${error.message}`,
          shown: error.status !== 409 && error.fieldErrors.length === 0,
        });
      } else {
        setFailure({
          text: `Copy ${copy.barcode} was not added: the server could not be reached. Check your connection and scan it again.`,
          shown: true,
        });
      }
      setFocus('barcode', { shouldSelect: true });
    }
  };

  return (
    <form
      className={styles.addCopy}
      aria-labelledby="add-copy-title"
      onSubmit={handleSubmit(onSubmit, (invalid) => {
        setAdded('');
        setFailure({ text: '', shown: true });
        if (invalid.barcode) setFocus('barcode', { shouldSelect: true });
      })}
      noValidate
    >
      <h3 id="add-copy-title" className={styles.subTitle}>
        Add a copy
      </h3>
      <div className={styles.copyFields}>
        <TextField
          label="Barcode"
          registration={register('barcode')}
          error={errors.barcode}
          hint="Scan the label, or type the code and press Enter."
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          required
        />
        <TextField
          label="Location"
          registration={register('location')}
          error={errors.location}
          hint="Shelfmark, branch or room."
          maxLength={COPY_LOCATION_MAX}
        />
        <SelectField
          label="Status"
          registration={register('status')}
          error={errors.status}
          options={STATUS_OPTIONS}
          defaultValue={EMPTY.status}
        />
        <TextField
          label="Note"
          registration={register('note')}
          error={errors.note}
          maxLength={COPY_NOTE_MAX}
        />
      </div>
      <div className={styles.formEnd}>
        {/* Never disabled: Enter in a form whose default button is disabled does nothing, and a
            scanner's next code must go through while the last one is being saved. */}
        <Button type="submit" variant="outline">
          Add copy
        </Button>
        <p role="status" className={added ? formStyles.info : styles.quiet}>
          {added}
        </p>
        {failure.shown ? (
          <FormMessage>{failure.text}</FormMessage>
        ) : (
          <p role="alert" className="visually-hidden">
            {failure.text}
          </p>
        )}
      </div>
    </form>
  );
}

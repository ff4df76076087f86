import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { ITEM_TYPES, type ItemDetail } from '#contract/http/catalogue.ts';
import type { ItemCreate, ManagedItem } from '#contract/http/items.ts';
import { ApiError } from '../../api/client.ts';
import { useCreateItem, useUpdateItem } from '../../api/items.ts';
import {
  FormMessage,
  formStyles,
  SelectField,
  TextAreaField,
  TextField,
} from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './desk-catalogue.module.css';
import {
  changedFields,
  formValuesOf,
  itemFormResolver,
  type ItemFormValues,
} from './item-form-values.ts';
import { FIELD_LABELS, ITEM_TYPE_LABELS, listInWords } from './labels.ts';

const TYPE_OPTIONS = ITEM_TYPES.map((type) => ({ value: type, label: ITEM_TYPE_LABELS[type] }));

const LIST_HINT =
  'Separate them with commas, or put one on each line when a name has a comma in it (“Tolkien, J. R. R.”).';

/** What the last Save came to; `invalid` names the fields still wrong as they are fixed. */
type Outcome = { kind: 'info' | 'error'; text: string } | { kind: 'invalid' } | null;

/** The sentence for a save the server refused or never received. */
function failureText(error: unknown, verb: string): string {
  if (error instanceof ApiError && error.fromServer) return `${verb}: ${error.message}`;
  return `${verb}: the server could not be reached. Check your connection and try again.`;
}

/**
 * An item's fields as librarians edit them: with `item`, Save sends only what changed; without,
 * Add creates the item and hands it to `onCreated`. The contract's schema checks every field
 * before sending, and the server's field errors land on the same fields.
 */
export function ItemForm({
  item,
  onCreated,
  initialTitle,
}: {
  item?: ItemDetail;
  onCreated?: (item: ManagedItem) => void;
  /** A new item's title to start from (insights' "Add to catalogue" passes a search term). */
  initialTitle?: string;
}) {
  const creating = item === undefined;
  const create = useCreateItem();
  const update = useUpdateItem(item?.id ?? '');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<ItemFormValues, unknown, ItemCreate>({
    resolver: itemFormResolver,
    defaultValues: {
      ...formValuesOf(item),
      ...(item === undefined && initialTitle ? { title: initialTitle } : {}),
    },
  });
  const type = useWatch({ control, name: 'type' });
  const failVerb = creating ? 'Not added' : 'Not saved';

  const onSubmit = async (fields: ItemCreate) => {
    setOutcome(null);
    try {
      if (creating) {
        const created = await create.mutateAsync(fields);
        onCreated?.(created);
        return;
      }
      const patch = changedFields(item, fields);
      const names = Object.keys(patch).map((field) => FIELD_LABELS[field] ?? field);
      if (names.length === 0) {
        setOutcome({ kind: 'info', text: 'Nothing to save: no field has changed.' });
        return;
      }
      const saved = await update.mutateAsync(patch);
      // The server's forms of what was typed (an ISBN-13) become the form's new starting point.
      reset(formValuesOf(saved));
      setOutcome({ kind: 'info', text: `Saved. Changed: ${listInWords(names)}.` });
    } catch (error) {
      if (error instanceof ApiError) {
        for (const field of error.fieldErrors) {
          const name = field.path.split('.')[0] as keyof ItemFormValues;
          if (name in formValuesOf()) setError(name, { message: field.message });
        }
        // The only conflict an item has is an ISBN another item carries.
        if (error.status === 409) setError('isbn', { message: error.message });
      }
      setOutcome({ kind: 'error', text: failureText(error, failVerb) });
    }
  };

  const invalidNames = Object.keys(errors).map((field) => FIELD_LABELS[field] ?? field);
  const failure =
    outcome?.kind === 'error'
      ? outcome.text
      : outcome?.kind === 'invalid' && invalidNames.length > 0
        ? `${failVerb}: check ${invalidNames.length === 1 ? 'the field' : 'the fields'} ${listInWords(invalidNames)}.`
        : '';

  return (
    <form
      className={formStyles.form}
      onSubmit={handleSubmit(onSubmit, () => setOutcome({ kind: 'invalid' }))}
      noValidate
    >
      <div className={styles.pair}>
        <SelectField
          label="Type"
          registration={register('type')}
          error={errors.type}
          options={TYPE_OPTIONS}
          defaultValue={formValuesOf(item).type}
        />
        <TextField
          label="Year"
          inputMode="numeric"
          registration={register('year')}
          error={errors.year}
          hint="The year it was published; leave blank if unknown."
        />
      </div>
      <TextField label="Title" registration={register('title')} error={errors.title} required />
      <TextAreaField
        label="Authors"
        rows={2}
        registration={register('authors')}
        error={errors.authors}
        hint={LIST_HINT}
      />
      <TextField
        label="ISBN"
        registration={register('isbn')}
        error={errors.isbn}
        hint="ISBN-10 or ISBN-13, hyphens allowed; it is kept as ISBN-13."
      />
      <TextAreaField
        label="Subjects"
        rows={2}
        registration={register('subjects')}
        error={errors.subjects}
        hint="Separate them with commas, or put one on each line."
      />
      <TextAreaField
        label="Description"
        rows={5}
        registration={register('description')}
        error={errors.description}
      />
      <div className={styles.pair}>
        <TextField
          label="Cover URL"
          type="url"
          registration={register('coverUrl')}
          error={errors.coverUrl}
          hint="An image address starting with https://"
        />
        <TextField
          label="Link"
          type="url"
          registration={register('url')}
          error={errors.url}
          hint="A web page about the item, or where to read it."
        />
      </div>
      {type === 'course' ? (
        <fieldset className={styles.courseFields}>
          <legend className={formStyles.label}>Course material</legend>
          <div className={styles.pair}>
            <TextField
              label="Institution"
              registration={register('institution')}
              error={errors.institution}
            />
            <TextField label="Genre" registration={register('genre')} error={errors.genre} />
          </div>
          <div className={styles.pair}>
            <TextField
              label="Publication date"
              type="date"
              registration={register('publishedDate')}
              error={errors.publishedDate}
            />
            <TextField
              label="Drive link"
              type="url"
              registration={register('driveLink')}
              error={errors.driveLink}
              hint="The shared Google Drive address of the document."
            />
          </div>
        </fieldset>
      ) : null}
      <div className={styles.formEnd}>
        <Button type="submit" disabled={isSubmitting}>
          {creating
            ? isSubmitting
              ? 'Adding…'
              : 'Add to the catalogue'
            : isSubmitting
              ? 'Saving…'
              : 'Save changes'}
        </Button>
        {/* Kept in the page, so screen readers hear a save that succeeds; a failure is an alert. */}
        <p role="status" className={outcome?.kind === 'info' ? formStyles.info : styles.quiet}>
          {outcome?.kind === 'info' ? outcome.text : ''}
        </p>
        <FormMessage>{failure}</FormMessage>
      </div>
    </form>
  );
}

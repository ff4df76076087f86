// @natlibfi/marc-record-serializers and @natlibfi/marc-record ship JavaScript without types: the
// parts this app uses, as their sources (dist/iso2709.js, dist/marcxml.js) define them.
declare module '@natlibfi/marc-record' {
  /** A control field (00X) has a value; a data field has indicators and subfields. */
  export interface MarcField {
    tag: string;
    value?: string;
    ind1?: string;
    ind2?: string;
    subfields?: { code: string; value?: string }[];
  }
  /** Which checks the constructor makes. */
  export interface ValidationOptions {
    fields?: boolean;
    subfields?: boolean;
    subfieldValues?: boolean;
    controlFieldValues?: boolean;
    leader?: boolean;
    characters?: boolean;
    noControlCharacters?: boolean;
    noAdditionalProperties?: boolean;
  }
  /** One MARC record. */
  export class MarcRecord {
    constructor(
      record?: { leader: string; fields: MarcField[] },
      validationOptions?: ValidationOptions,
    );
    leader: string;
    fields: MarcField[];
    get(tag: string | RegExp): MarcField[];
    getControlfields(): MarcField[];
    getDatafields(): MarcField[];
    toObject(): { leader: string; fields: MarcField[] };
  }
}

declare module '@natlibfi/marc-record-serializers' {
  import type { MarcRecord, ValidationOptions } from '@natlibfi/marc-record';
  /** MARC 21 in ISO 2709: one record's text (decoded UTF-8, up to its 0x1D terminator). */
  export const ISO2709: {
    from(record: string, validationOptions?: ValidationOptions): MarcRecord;
    to(record: MarcRecord): string;
  };
  /** MARCXML: one `<record>` element. */
  export const MARCXML: {
    from(record: string, validationOptions?: ValidationOptions): Promise<MarcRecord>;
    to(record: MarcRecord, options?: { omitDeclaration?: boolean; indent?: boolean }): string;
  };
}

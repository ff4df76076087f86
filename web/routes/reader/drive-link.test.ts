import { describe, expect, it } from 'vitest';
import { driveFileId, drivePreviewUrl } from './drive-link.ts';

const ID = '1AbCdEfGhIjKlMnOpQrStUvWxYz012345';

describe('Drive links', () => {
  it('finds the file id by the /d/{id} and id= forms', () => {
    expect(driveFileId(`https://drive.google.com/file/d/${ID}/view?usp=sharing`)).toBe(ID);
    expect(driveFileId(`https://drive.google.com/open?id=${ID}`)).toBe(ID);
    expect(driveFileId(`https://drive.google.com/uc?export=download&id=${ID}`)).toBe(ID);
  });

  it('refuses ids shorter than 25 characters and other links', () => {
    expect(driveFileId('https://drive.google.com/file/d/short123/view')).toBeNull();
    expect(driveFileId('https://example.com/paper.pdf')).toBeNull();
    expect(driveFileId('')).toBeNull();
  });

  it('builds the preview address', () => {
    expect(drivePreviewUrl(ID)).toBe(`https://drive.google.com/file/d/${ID}/preview`);
  });
});

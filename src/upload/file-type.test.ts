import { describe, expect, it } from 'vitest';
import { isUploadSource, matchesAccept, mimeOf, uploadKindOf } from './file-type.js';

describe('Accepted type (spec §5): an <input accept>-style list, images by default', () => {
  it('matches MIME wildcards, exact MIME types and extensions, case-insensitively', () => {
    expect(matchesAccept({ name: 'a.PNG', type: 'image/png' }, 'image/*')).toBe(true);
    expect(matchesAccept({ name: 'a.pdf', type: 'application/pdf' }, 'image/*')).toBe(false);
    expect(matchesAccept({ name: 'a.pdf', type: 'application/pdf' }, 'image/*, application/pdf')).toBe(true);
    expect(matchesAccept({ name: 'REPORT.PDF', type: '' }, '.pdf')).toBe(true);
    expect(matchesAccept({ name: 'report', type: '' }, '.pdf')).toBe(false);
  });

  it('an empty list or * accepts everything', () => {
    expect(matchesAccept({ name: 'x.bin', type: 'application/octet-stream' }, '')).toBe(true);
    expect(matchesAccept({ name: 'x.bin', type: 'application/octet-stream' }, '*')).toBe(true);
    expect(matchesAccept({ name: 'x.bin', type: '' }, '*/*')).toBe(true);
  });

  it('guesses the type from the extension when the browser gives none', () => {
    expect(matchesAccept({ name: 'photo.jpg', type: '' }, 'image/*')).toBe(true);
    expect(mimeOf({ name: 'clip.MOV', type: '' })).toBe('video/quicktime');
    expect(mimeOf({ name: 'noext', type: '' })).toBe('application/octet-stream');
    expect(mimeOf({ type: 'Image/PNG' })).toBe('image/png');
  });
});

describe('Kind: images become type 101, videos 103, other files 102', () => {
  it('classifies by MIME type', () => {
    expect(uploadKindOf({ name: 'a.gif', type: 'image/gif' })).toBe('image');
    expect(uploadKindOf({ name: 'a.webm', type: '' })).toBe('video');
    expect(uploadKindOf({ name: 'a.zip', type: 'application/zip' })).toBe('file');
  });
});

describe('isUploadSource: only a File or Blob can be uploaded', () => {
  it('accepts Blob and File, refuses anything else', () => {
    expect(isUploadSource(new Blob(['x']))).toBe(true);
    expect(isUploadSource(new File(['x'], 'x.txt'))).toBe(true);
    expect(isUploadSource('x')).toBe(false);
    expect(isUploadSource(null)).toBe(false);
    expect(isUploadSource({ size: 1 })).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { checkComplaintAttachments } from './complaint.js';

const img = (n: number): File => new File(['i'], `${n}.png`, { type: 'image/png' });
const vid = (n: number): File => new File(['v'], `${n}.mp4`, { type: 'video/mp4' });

describe('A complaint allows at most 5 images and 1 video (spec §5)', () => {
  it('accepts the first 5 images and the first video, refuses the rest', () => {
    const files = [img(1), vid(1), img(2), img(3), img(4), img(5), img(6), vid(2)];
    const r = checkComplaintAttachments(files);
    expect(r.images.map((f) => f.name)).toEqual(['1.png', '2.png', '3.png', '4.png', '5.png']);
    expect(r.videos.map((f) => f.name)).toEqual(['1.mp4']);
    expect(r.accepted).toHaveLength(6);
    expect(r.errors.map((e) => [e.file.name, e.reason, e.limit])).toEqual([
      ['6.png', 'too-many-images', 5],
      ['2.mp4', 'too-many-videos', 1],
    ]);
  });

  it('counts the attachments already on the form', () => {
    const r = checkComplaintAttachments([img(5), img(6), vid(1)], {}, { images: 4, videos: 1 });
    expect(r.accepted.map((f) => f.name)).toEqual(['5.png']);
    expect(r.errors.map((e) => e.reason)).toEqual(['too-many-images', 'too-many-videos']);
  });

  it('refuses files that are neither image nor video', () => {
    const r = checkComplaintAttachments([new File(['x'], 'a.pdf', { type: 'application/pdf' })]);
    expect(r.accepted).toEqual([]);
    expect(r.errors[0]?.reason).toBe('not-image-or-video');
  });

  it('takes other limits', () => {
    const r = checkComplaintAttachments([img(1), img(2), vid(1), vid(2)], { maxImages: 1, maxVideos: 2 });
    expect(r.accepted.map((f) => f.name)).toEqual(['1.png', '1.mp4', '2.mp4']);
  });

  it('gives a clear error for bad input', () => {
    expect(() => checkComplaintAttachments(null as unknown as File[])).toThrow(/iterable of File or Blob/);
    expect(() => checkComplaintAttachments(['x' as unknown as File])).toThrow(/entry 0 is not a File or Blob/);
    expect(() => checkComplaintAttachments([], { maxImages: -1 })).toThrow(/maxImages must be an integer >= 0/);
  });
});

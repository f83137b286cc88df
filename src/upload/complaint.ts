/**
 * The complaint form's attachment limits (spec §3 "Complaint", §5): at most 5 images and 1 video.
 * @module
 */
import { isUploadSource, uploadKindOf } from './file-type.js';
import type { UploadSource } from './types.js';

/** Limits of {@link checkComplaintAttachments}. */
export interface ComplaintAttachmentLimits {
  /** Most images a complaint may carry (spec: 5). */
  maxImages: number;
  /** Most videos a complaint may carry (spec: 1). */
  maxVideos: number;
}

/** The spec's complaint limits: 5 images, 1 video. */
export const COMPLAINT_ATTACHMENT_LIMITS: Readonly<ComplaintAttachmentLimits> = Object.freeze({ maxImages: 5, maxVideos: 1 });

/** Why an attachment was refused. */
export type ComplaintAttachmentErrorReason = 'too-many-images' | 'too-many-videos' | 'not-image-or-video';

/** A refused attachment. */
export interface ComplaintAttachmentError<F> {
  /** The file. */
  file: F;
  /** Why it was refused. */
  reason: ComplaintAttachmentErrorReason;
  /** The limit that was reached (for the two `too-many` reasons). */
  limit?: number;
}

/** Result of {@link checkComplaintAttachments}. */
export interface ComplaintAttachmentCheck<F> {
  /** Every accepted file, in the order given. */
  accepted: F[];
  /** The accepted images. */
  images: F[];
  /** The accepted videos. */
  videos: F[];
  /** The refused files, in the order given. */
  errors: ComplaintAttachmentError<F>[];
}

/** How many attachments the complaint already holds (when files are added a few at a time). */
export interface ComplaintAttachmentCounts {
  /** Images already attached. */
  images: number;
  /** Videos already attached. */
  videos: number;
}

function checkCount(value: number, name: string): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RangeError(`checkComplaintAttachments: ${name} must be an integer >= 0, got ${String(value)}`);
  }
}

/**
 * Splits files into the ones a complaint accepts and the ones it refuses: images up to
 * `maxImages`, videos up to `maxVideos` (counting what is already attached), nothing else.
 * Files are taken in order, so the first ones win.
 * @param files - the picked files
 * @param limitOverrides - limits; each defaults to the spec's (5 images, 1 video)
 * @param existing - attachments already on the form (default none)
 * @throws TypeError when `files` is not an iterable of File/Blob; RangeError for bad limits
 */
export function checkComplaintAttachments<F extends UploadSource>(
  files: Iterable<F>,
  limitOverrides: Partial<ComplaintAttachmentLimits> = {},
  existing: ComplaintAttachmentCounts = { images: 0, videos: 0 },
): ComplaintAttachmentCheck<F> {
  const limits: ComplaintAttachmentLimits = { ...COMPLAINT_ATTACHMENT_LIMITS, ...limitOverrides };
  if (files === null || typeof files !== 'object' || typeof (files as Iterable<unknown>)[Symbol.iterator] !== 'function') {
    throw new TypeError('checkComplaintAttachments: expected an iterable of File or Blob');
  }
  checkCount(limits.maxImages, 'maxImages');
  checkCount(limits.maxVideos, 'maxVideos');
  checkCount(existing.images, 'existing.images');
  checkCount(existing.videos, 'existing.videos');
  const result: ComplaintAttachmentCheck<F> = { accepted: [], images: [], videos: [], errors: [] };
  let i = 0;
  for (const file of files) {
    if (!isUploadSource(file)) throw new TypeError(`checkComplaintAttachments: entry ${i} is not a File or Blob`);
    i++;
    const kind = uploadKindOf(file);
    if (kind === 'image') {
      if (existing.images + result.images.length >= limits.maxImages) {
        result.errors.push({ file, reason: 'too-many-images', limit: limits.maxImages });
      } else {
        result.images.push(file);
        result.accepted.push(file);
      }
    } else if (kind === 'video') {
      if (existing.videos + result.videos.length >= limits.maxVideos) {
        result.errors.push({ file, reason: 'too-many-videos', limit: limits.maxVideos });
      } else {
        result.videos.push(file);
        result.accepted.push(file);
      }
    } else {
      result.errors.push({ file, reason: 'not-image-or-video' });
    }
  }
  return result;
}

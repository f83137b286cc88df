/** One example file of docs/examples/: its text on disk and the text the guide shows (null when none). */
export interface GuideBlock {
  file: string;
  onDisk: string;
  shown: string | null;
}
/** Every example file of docs/examples/ and how the guide shows it. */
export function guideBlocks(): GuideBlock[];

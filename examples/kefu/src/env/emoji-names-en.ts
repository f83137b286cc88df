/**
 * The 99 emoji names in English, for screen readers of the languages other than Chinese: the
 * `face[name]` tokens and the images stay the SDK's (`EMOJI_NAMES`, Chinese); only what is spoken
 * changes. In the translations' chunk (loaded with the first language other than zh).
 * @module
 */

/** The English names, in the order of `EMOJI_NAMES`. */
export const EMOJI_NAMES_EN: readonly string[] = Object.freeze([
  'Smile', 'Grimace', 'Heart eyes', 'Blank stare', 'Proud', 'Tears', 'Shy', 'Zipped mouth', 'Sleeping', 'Crying loudly',
  'Awkward', 'Angry', 'Playful', 'Grin', 'Surprised', 'Sad', 'Cool', 'Cold sweat', 'Frantic', 'Vomiting',
  'Snicker', 'Happy', 'Eye roll', 'Haughty', 'Hungry', 'Sleepy', 'Terrified', 'Sweating', 'Silly grin', 'Relaxed',
  'Determined', 'Cursing', 'Puzzled', 'Shush', 'Dizzy', 'Going crazy', 'Unlucky', 'Skull', 'Knock on the head', 'Goodbye',
  'Wiping sweat', 'Nose picking', 'Applause', 'Embarrassed', 'Smirk', 'Huff left', 'Huff right', 'Yawn', 'Scorn', 'Wronged',
  'About to cry', 'Sly', 'Kiss', 'Scared', 'Pitiful', 'Cleaver', 'Watermelon', 'Beer', 'Basketball', 'Table tennis',
  'Coffee', 'Rice bowl', 'Pig head', 'Rose', 'Wilted flower', 'Lips', 'Heart', 'Broken heart', 'Cake', 'Lightning',
  'Bomb', 'Knife', 'Football', 'Ladybug', 'Poop', 'Moon', 'Sun', 'Gift', 'Hug', 'Thumbs up',
  'Thumbs down', 'Handshake', 'Victory', 'Fist salute', 'Beckoning finger', 'Fist', 'Poor', 'Love you', 'No', 'OK',
  'In love', 'Blowing a kiss', 'Jumping', 'Shivering', 'Fuming', 'Spinning', 'Kowtow', 'Looking back', 'Jump rope',
]);

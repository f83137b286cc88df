/**
 * Emoji: the fixed list of 99 names and the `face[name]` text token (spec §3, §5).
 * @module
 */

/**
 * The fixed list of the 99 emoji names, in the classic QQ/WeChat face order. The index of a name
 * selects its image (e.g. sprite cell or file `<index>.png`).
 */
export const EMOJI_NAMES = Object.freeze([
  '微笑', '撇嘴', '色', '发呆', '得意', '流泪', '害羞', '闭嘴', '睡', '大哭',
  '尴尬', '发怒', '调皮', '呲牙', '惊讶', '难过', '酷', '冷汗', '抓狂', '吐',
  '偷笑', '愉快', '白眼', '傲慢', '饥饿', '困', '惊恐', '流汗', '憨笑', '悠闲',
  '奋斗', '咒骂', '疑问', '嘘', '晕', '疯了', '衰', '骷髅', '敲打', '再见',
  '擦汗', '抠鼻', '鼓掌', '糗大了', '坏笑', '左哼哼', '右哼哼', '哈欠', '鄙视', '委屈',
  '快哭了', '阴险', '亲亲', '吓', '可怜', '菜刀', '西瓜', '啤酒', '篮球', '乒乓',
  '咖啡', '饭', '猪头', '玫瑰', '凋谢', '嘴唇', '爱心', '心碎', '蛋糕', '闪电',
  '炸弹', '刀', '足球', '瓢虫', '便便', '月亮', '太阳', '礼物', '拥抱', '强',
  '弱', '握手', '胜利', '抱拳', '勾引', '拳头', '差劲', '爱你', 'NO', 'OK',
  '爱情', '飞吻', '跳跳', '发抖', '怄火', '转圈', '磕头', '回头', '跳绳',
] as const);

/** One of the 99 emoji names. */
export type EmojiName = (typeof EMOJI_NAMES)[number];

/** Width and height of an emoji image, px (spec §9: 25x25). */
export const EMOJI_SIZE = 25;

/** A piece of text that is not an emoji. */
export interface TextToken {
  /** Discriminant. */
  type: 'text';
  /** The literal text (render it as text, never as HTML). */
  text: string;
}

/** A `face[name]` token whose name is in {@link EMOJI_NAMES}. */
export interface EmojiTokenItem {
  /** Discriminant. */
  type: 'emoji';
  /** The emoji name. */
  name: EmojiName;
  /** Its index in {@link EMOJI_NAMES}: selects the image. */
  index: number;
  /** The literal source text, `face[name]` (for copying, and as the image's alt text). */
  text: string;
}

/** A token of {@link parseEmoji}. */
export type EmojiToken = TextToken | EmojiTokenItem;

/** name -> index, built on first use (no work at import time). */
let indexByName: Map<string, number> | undefined;

/**
 * The index of an emoji name in {@link EMOJI_NAMES}.
 * @returns the index (0-98), or -1 for a name not in the list
 */
export function emojiIndex(name: string): number {
  if (typeof name !== 'string') return -1;
  indexByName ??= new Map(EMOJI_NAMES.map((n, i) => [n, i]));
  return indexByName.get(name) ?? -1;
}

/**
 * The text token for an emoji, `face[name]`, as inserted into a message by an emoji picker.
 * @throws TypeError when `name` is not in {@link EMOJI_NAMES}
 */
export function emojiToken(name: string): string {
  if (emojiIndex(name) < 0) throw new TypeError(`emojiToken: unknown emoji name ${JSON.stringify(name)}`);
  return `face[${name}]`;
}

/** `face[...]`: names are short and never contain brackets. */
const FACE = /face\[([^[\]\r\n]{1,8})\]/g;

/**
 * Splits text into text and emoji tokens. `face[name]` with a name in the list becomes an emoji
 * token; unknown names are left as text (spec §5: "Emoji replacement applies only to names in the
 * list"). Adjacent text is merged, empty text tokens are never produced, and joining the tokens'
 * `text` gives back the input.
 */
export function parseEmoji(text: string): EmojiToken[] {
  if (typeof text !== 'string' || text === '') return [];
  const out: EmojiToken[] = [];
  let last = 0;
  let pending = '';
  for (const m of text.matchAll(FACE)) {
    const name = m[1] ?? '';
    const index = emojiIndex(name);
    if (index < 0) continue;
    const at = m.index;
    pending += text.slice(last, at);
    if (pending !== '') out.push({ type: 'text', text: pending });
    pending = '';
    out.push({ type: 'emoji', name: name as EmojiName, index, text: m[0] });
    last = at + m[0].length;
  }
  pending += text.slice(last);
  if (pending !== '') out.push({ type: 'text', text: pending });
  return out;
}

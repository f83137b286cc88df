/**
 * The robot: FAQ matching for answers (type 200), suggested questions (type 201) and questionLike.
 * Pure functions over the FAQ rows.
 * @module
 */

import type { FaqQuestion } from '../store/types.js';

/** A suggested question on the wire: `{ id, question }`. */
export interface Suggestion {
  /** Question id. */
  id: string;
  /** Question text. */
  question: string;
}

/**
 * Splits text into match tokens: lowercase latin words and digits, and CJK characters and bigrams.
 * @internal
 */
export function tokens(text: string): Set<string> {
  const out = new Set<string>();
  const lower = text.toLowerCase();
  for (const word of lower.match(/[a-z0-9]+/g) ?? []) {
    if (word.length >= 2 || /\d/.test(word)) out.add(word);
  }
  for (const run of lower.match(/[\u3400-\u9fff\uf900-\ufaff]+/g) ?? []) {
    for (let i = 0; i < run.length; i += 1) {
      out.add(run[i] ?? '');
      if (i + 1 < run.length) out.add(run.slice(i, i + 2));
    }
  }
  out.delete('');
  return out;
}

const STOP = new Set(['the', 'is', 'are', 'do', 'does', 'how', 'what', 'my', 'can', 'to', 'of', 'in', 'an', 'it', '吗', '的', '了', '我', '么', '呢', '是']);

function score(query: Set<string>, raw: string, question: FaqQuestion): number {
  const target = tokens(`${question.question} ${question.keywords.replace(/,/g, ' ')}`);
  let hit = 0;
  let total = 0;
  for (const t of query) {
    if (STOP.has(t)) continue;
    const weight = t.length >= 2 ? 2 : 1;
    total += weight;
    if (target.has(t)) hit += weight;
  }
  if (total === 0) return 0;
  const keywordHit = question.keywords
    .split(',')
    .map((k) => k.trim().toLowerCase())
    .some((k) => k !== '' && raw.includes(k));
  return hit / total + (keywordHit ? 0.5 : 0);
}

/**
 * The best FAQ answer for a visitor's text, or undefined when nothing matches well enough.
 * @param text - what the visitor wrote.
 * @param questions - the merchant's FAQ (any languages).
 */
export function bestAnswer(text: string, questions: readonly FaqQuestion[]): FaqQuestion | undefined {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '') return undefined;
  const exact = questions.find((q) => q.question.trim().toLowerCase() === trimmed);
  if (exact) return exact;
  const query = tokens(trimmed);
  let best: FaqQuestion | undefined;
  let bestScore = 0;
  for (const q of questions) {
    const s = score(query, trimmed, q);
    if (s > bestScore) {
      best = q;
      bestScore = s;
    }
  }
  return bestScore >= 0.5 ? best : undefined;
}

/**
 * Questions whose text or keywords contain `keyword` (case-insensitive), best first, at most `limit`.
 */
export function questionsLike(keyword: string, questions: readonly FaqQuestion[], limit = 20): Suggestion[] {
  const needle = keyword.trim().toLowerCase();
  if (needle === '') return [];
  const query = tokens(needle);
  return questions
    .map((q) => {
      const contains = q.question.toLowerCase().includes(needle) || q.keywords.toLowerCase().includes(needle);
      return { q, s: (contains ? 2 : 0) + score(query, needle, q) };
    })
    .filter((x) => x.s >= 0.5)
    .sort((a, b) => b.s - a.s)
    .slice(0, limit)
    .map((x) => ({ id: x.q.id, question: x.q.question }));
}

/** The suggested questions shown at session start: the first `limit` of the language's FAQ. */
export function suggestions(questions: readonly FaqQuestion[], limit = 6): Suggestion[] {
  return questions.slice(0, limit).map((q) => ({ id: q.id, question: q.question }));
}

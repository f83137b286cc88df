import { describe, expect, it } from 'vitest';
import { loadCatalogue } from './i18n.js';
import { SUPPORTED_LANGUAGES, type Catalogue, type Language } from './languages.js';
import { zh } from './locales/zh.js';

const keys = Object.keys(zh).sort();
const params = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
const load = async (): Promise<[Language, Catalogue][]> => Promise.all(SUPPORTED_LANGUAGES.map(async (l) => [l, await loadCatalogue(l)] as [Language, Catalogue]));

describe('every catalogue has every key of zh (the key language) and no other', () => {
  it('has exactly the zh keys, each a non-empty text', async () => {
    for (const [lang, catalogue] of await load()) {
      expect(Object.keys(catalogue).sort(), lang).toEqual(keys);
      for (const key of keys) {
        const text = catalogue[key as keyof Catalogue];
        expect(typeof text === 'string' && text.trim() !== '', `${lang}.${key}`).toBe(true);
      }
    }
  });

  it('keeps the same {param} placeholders as zh', async () => {
    for (const [lang, catalogue] of await load()) {
      for (const key of keys) {
        const k = key as keyof Catalogue;
        expect(params(catalogue[k]), `${lang}.${key}`).toEqual(params(zh[k]));
      }
    }
  });

  it('holds real translations: no Chinese characters outside zh, zh-Hant and ja', async () => {
    for (const [lang, catalogue] of await load()) {
      if (lang === 'zh' || lang === 'zh-Hant' || lang === 'ja') continue;
      for (const [key, text] of Object.entries(catalogue)) expect(/[\u4e00-\u9fff]/.test(text), `${lang}.${key}: ${text}`).toBe(false);
    }
  });

  it('has Traditional characters in zh-Hant where zh uses Simplified ones', async () => {
    const hant = await loadCatalogue('zh-Hant');
    expect(hant.sendFailed).toBe('發送失敗');
    expect(hant.transferConfirm).toBe('是否前往人工客服介面?');
    const differing = keys.filter((k) => hant[k as keyof Catalogue] !== zh[k as keyof Catalogue]);
    expect(differing.length).toBeGreaterThan(keys.length / 2);
  });
});

describe('spec §8: the English user-visible messages', () => {
  it('match the spec word for word', async () => {
    const en = await loadCatalogue('en');
    expect({
      sendFailed: en.sendFailed,
      networkError: en.networkError,
      blacklisted: en.blacklisted,
      alreadyRated: en.alreadyRated,
      sendTooFrequent: en.sendTooFrequent,
      blankMessage: en.blankMessage,
      linkBroken: en.linkBroken,
      requestFailed: en.requestFailed,
      requestTimeout: en.requestTimeout,
      requestTooFrequent: en.requestTooFrequent,
      videoTooLarge: en.videoTooLarge,
      videoCannotPlay: en.videoCannotPlay,
      uploadFailed: en.uploadFailed,
      submitFailed: en.submitFailed,
      rateFailed: en.rateFailed,
      serviceBusy: en.serviceBusy,
      conversationOver: en.conversationOver,
      closingSoon: en.closingSoon,
      banned: en.banned,
      rateRequired: en.rateRequired,
    }).toEqual({
      sendFailed: 'Send failed',
      networkError: 'Network abnormality, please try again later',
      blacklisted: 'You have been blacklisted and cannot use the review function',
      alreadyRated: 'You have commented already',
      sendTooFrequent: 'Sending too frequently',
      blankMessage: 'Cannot send blank message',
      linkBroken: 'Link is broken',
      requestFailed: 'Request failed',
      requestTimeout: 'Request timed out, please check the network',
      requestTooFrequent: 'Frequent requests, please try again later',
      videoTooLarge: 'The video file is too large and the upload timed out',
      videoCannotPlay: 'This video cannot be played at this time',
      uploadFailed: 'Upload failed',
      submitFailed: 'Submission failed',
      rateFailed: 'Evaluation failed',
      serviceBusy: 'Customer service is currently busy',
      conversationOver: 'Conversation is over',
      closingSoon: 'It will be closed soon, please do not refresh',
      banned: 'Access denied, please contact the administrator',
      rateRequired: 'Please rate this service',
    });
  });
});

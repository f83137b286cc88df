import { beforeAll, describe, expect, it } from 'vitest';
import { appText, appTexts } from '../env/app-texts.js';
import { depositStatusText } from './deposit-card.js';

const t = 'zh';
const zh = { depositStatusSuccess: appText('zh', 'depositStatusSuccess'), depositStatusPending: appText('zh', 'depositStatusPending'), depositStatusFailed: appText('zh', 'depositStatusFailed') };

describe('the deposit card shows the funding order status translated (no raw "SUCCESS")', () => {
  beforeAll(async () => {
    await appTexts.load('en');
  });

  it('translates the known statuses in any case', () => {
    expect(depositStatusText('SUCCESS', t)).toBe(zh.depositStatusSuccess);
    expect(depositStatusText('success', t)).toBe(zh.depositStatusSuccess);
    expect(depositStatusText('PENDING', t)).toBe(zh.depositStatusPending);
    expect(depositStatusText('FAILED', t)).toBe(zh.depositStatusFailed);
    expect(depositStatusText('paid', 'en')).toBe('Successful');
  });

  it('shows an unknown status as sent, and a dash for none', () => {
    expect(depositStatusText('REFUNDED', t)).toBe('REFUNDED');
    expect(depositStatusText(undefined, t)).toBe('—');
  });
});

import { zh, type I18nKey } from '@kefu-im/sdk';
import { describe, expect, it } from 'vitest';
import { depositStatusText } from './deposit-card.js';

const t = (key: I18nKey): string => zh[key];

describe('the deposit card shows the funding order status translated (no raw "SUCCESS")', () => {
  it('translates the known statuses in any case', () => {
    expect(depositStatusText('SUCCESS', t)).toBe(zh.depositStatusSuccess);
    expect(depositStatusText('success', t)).toBe(zh.depositStatusSuccess);
    expect(depositStatusText('PENDING', t)).toBe(zh.depositStatusPending);
    expect(depositStatusText('FAILED', t)).toBe(zh.depositStatusFailed);
  });

  it('shows an unknown status as sent, and a dash for none', () => {
    expect(depositStatusText('REFUNDED', t)).toBe('REFUNDED');
    expect(depositStatusText(undefined, t)).toBe('—');
  });
});

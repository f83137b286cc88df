/**
 * Records a visitor leaves outside the chat (`createMsg`): complaints (type 400) and left
 * messages (type 401), each kept once per `fp` (a resent one answers the stored one).
 * @module
 */

import type { MessageClock } from '../chat/clock.js';
import type { Complaint, LeaveMessage, Store } from '../store/types.js';
import type { Merchants } from './merchants.js';

/** A complaint as the visitor wrote it (the server adds the time). */
export type NewComplaint = Omit<Complaint, 'createdAt'>;

/** A left message as the visitor wrote it (the server adds the time). */
export type NewLeaveMessage = Omit<LeaveMessage, 'createdAt'>;

/** The record service. */
export class Records {
  /**
   * @param store - storage
   * @param clock - acceptance times
   * @param merchants - the merchant a record is for must exist
   */
  constructor(
    private readonly store: Store,
    private readonly clock: MessageClock,
    private readonly merchants: Merchants,
  ) {}

  /**
   * Stores a complaint once per `fp`.
   * @returns the stored complaint (the earlier one for a known `fp`)
   * @throws ApiError 1003 for an unknown merchant.
   */
  async complain(complaint: NewComplaint): Promise<Complaint> {
    await this.merchants.requireMerchant(complaint.mchId);
    return this.store.records.addComplaint({ ...complaint, createdAt: this.clock.next() });
  }

  /**
   * Stores a left message once per `fp`.
   * @returns the stored message (the earlier one for a known `fp`)
   * @throws ApiError 1003 for an unknown merchant.
   */
  async leaveMessage(message: NewLeaveMessage): Promise<LeaveMessage> {
    await this.merchants.requireMerchant(message.mchId);
    return this.store.records.addLeaveMessage({ ...message, createdAt: this.clock.next() });
  }
}

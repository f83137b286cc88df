/**
 * Demo data written on first start, so that a new user sees a working chat at once: a merchant
 * with its avatar, a platform, a group with users and a channel, FAQ in Chinese and English, a
 * deposit order, and a blacklisted and a banned demo visitor.
 * @module
 */

import { DEFAULT_KEFU_AVATAR } from './chat/context.js';
import type { MessageClock } from './chat/clock.js';
import type { AgentAccount } from './config.js';
import type { FaqQuestion, Store } from './store/types.js';

/** The demo identifiers. */
export const DEMO = {
  mchId: 'M1001',
  platformId: 'P01',
  groupId: 'G100',
  channelId: 'C100',
  orderNo: 'ORD202400001',
  blacklistedClientId: 'demo-blacklisted',
  bannedClientId: 'demo-banned',
  /** The opaque entry param stored for decodeParam. */
  entryParam: 'demo',
} as const;

/** The raw entry string (protocol §6, layout data3) of the demo visitor link. */
export function demoEntryRaw(kefuId: string, groupId = 'null'): string {
  return `data3:kefu:${DEMO.mchId}:${DEMO.platformId}:${kefuId}:zh:0:0:${groupId}`;
}

/** `/kefu/<base64url(raw)>`: the demo visitor entry path. */
export function demoEntryPath(kefuId: string): string {
  return `/kefu/${Buffer.from(demoEntryRaw(kefuId), 'utf8').toString('base64url')}`;
}

const FAQ: Record<'zh' | 'en', { category: string; items: [string, string, string][] }[]> = {
  zh: [
    {
      category: '充值问题',
      items: [
        ['充值多久到账？', '充值一般在 1-5 分钟内到账，高峰期可能延迟至 30 分钟。超过 30 分钟未到账，请提供订单号联系人工客服。', '充值,到账,多久'],
        ['充值未到账怎么办？', '请先在“充值记录”中核对订单状态；如显示成功但余额未变，请发送订单号给人工客服处理。', '未到账,没到账,充值失败'],
        ['支持哪些充值方式？', '目前支持银行卡转账、支付宝和 USDT 充值，具体以充值页面显示为准。', '充值方式,支付宝,银行卡,usdt'],
      ],
    },
    {
      category: '账户问题',
      items: [
        ['如何修改登录密码？', '请进入“我的 - 安全设置 - 修改密码”，按提示验证手机号后设置新密码。', '密码,修改密码,登录'],
        ['账户被冻结怎么办？', '账户冻结通常因安全风控触发，请转人工客服并提供会员账号，我们会尽快核实处理。', '冻结,封号,账户'],
      ],
    },
  ],
  en: [
    {
      category: 'Deposits',
      items: [
        ['How long does a deposit take?', 'Deposits usually arrive within 1-5 minutes; at peak times it may take up to 30 minutes. After 30 minutes, contact a human agent with your order number.', 'deposit,arrive,how long'],
        ['My deposit has not arrived', 'First check the order status in your deposit history. If it shows success but your balance did not change, send the order number to a human agent.', 'not arrived,missing,deposit failed'],
        ['Which deposit methods are supported?', 'Bank transfer, Alipay and USDT are supported; the deposit page shows what is available to you.', 'method,alipay,bank,usdt'],
      ],
    },
    {
      category: 'Account',
      items: [
        ['How do I change my password?', 'Go to Me - Security - Change password and confirm with your phone number.', 'password,change password,login'],
        ['My account is frozen', 'Accounts are frozen by the risk checks. Ask for a human agent with your member account and we will look into it.', 'frozen,locked,account'],
      ],
    },
  ],
};

/**
 * Writes the demo data unless the store was seeded before.
 * @returns true when it seeded now.
 */
export async function seedDemoData(store: Store, clock: MessageClock, agents: readonly AgentAccount[]): Promise<boolean> {
  if ((await store.meta('seeded')) !== undefined) return false;
  // every write is an upsert or once per key: nodes of a cluster seeding at once agree
  await store.transaction(async (tx) => {
    const now = Date.now();
    const d = tx.directory;
    await d.putMerchant({
      mchId: DEMO.mchId,
      name: '示例商城 Demo Shop',
      kefuAvatar2: DEFAULT_KEFU_AVATAR,
      extra: { serviceHours: '09:00-21:00', website: 'https://example.com' },
    });
    await d.putPlatform({ mchId: DEMO.mchId, platformId: DEMO.platformId, name: 'Web', enabled: true });
    for (const [language, categories] of Object.entries(FAQ)) {
      for (const [ci, category] of categories.entries()) {
        const categoryId = `${language}-c${ci + 1}`;
        await d.putCategory({ id: categoryId, mchId: DEMO.mchId, platformId: DEMO.platformId, language, name: category.category, sort: ci });
        for (const [qi, [question, answer, keywords]] of category.items.entries()) {
          const row: FaqQuestion = {
            id: `${language}-q${ci + 1}${qi + 1}`,
            categoryId,
            mchId: DEMO.mchId,
            platformId: DEMO.platformId,
            language,
            question,
            answer,
            keywords,
            sort: ci * 10 + qi,
          };
          await d.putQuestion(row);
        }
      }
    }
    await d.putOrder({
      mchId: DEMO.mchId,
      orderNo: DEMO.orderNo,
      userAccount: 'demo_member',
      userMchId: DEMO.mchId,
      amount: '100.00',
      status: 'SUCCESS',
    });
    await d.putGroup({ groupId: DEMO.groupId, mchId: DEMO.mchId, name: '示例群 Demo Group', kind: 'group', avatar: DEFAULT_KEFU_AVATAR, notice: 'Welcome! Be kind.', open: true });
    await d.putGroup({ groupId: DEMO.channelId, mchId: DEMO.mchId, name: '公告 Announcements', kind: 'channel', avatar: DEFAULT_KEFU_AVATAR, notice: 'Official news', open: true });
    const users = [
      { clientId: 'demo-lily', name: 'Lily', role: 'member' as const },
      { clientId: 'demo-tom', name: 'Tom', role: 'member' as const },
      { clientId: 'demo-staff', name: 'Anna (staff)', role: 'staff' as const },
    ];
    for (const groupId of [DEMO.groupId, DEMO.channelId]) {
      for (const u of users) await d.addMember({ groupId, clientId: u.clientId, name: u.name, avatar: '', role: u.role, joinedAt: now });
    }
    const post = async (groupId: string, from: (typeof users)[number], text: string, n: number): Promise<void> => {
      const group = await d.group(groupId);
      await tx.chat.insertMessage({
        fp: `seed-${groupId}-${n}`,
        type: 100,
        from: from.clientId,
        to: groupId,
        fn: from.name,
        tn: group?.name ?? '',
        fa: '',
        ta: group?.avatar ?? '',
        mchId: DEMO.mchId,
        platformId: '',
        clientId: null,
        groupId,
        sessionId: null,
        dataContent: text,
        isRead: 0,
        robot: 0,
        isGroup: 1,
        createTime: clock.next(),
        cm: null,
      });
    };
    const [lily, tom, staff] = users as [(typeof users)[number], (typeof users)[number], (typeof users)[number]];
    await post(DEMO.groupId, lily, '大家好 face[微笑]', 1);
    await post(DEMO.groupId, tom, 'Hi all! Deposits are fast today.', 2);
    await post(DEMO.channelId, staff, '系统将于周日 02:00-04:00 维护。Maintenance on Sunday 02:00-04:00.', 1);
    for (const [clientId, flags] of [
      [DEMO.blacklistedClientId, { blacklisted: true, banned: false }],
      [DEMO.bannedClientId, { blacklisted: false, banned: true }],
    ] as const) {
      await tx.chat.saveVisitor({ clientId, name: clientId, avatar: '', language: 'zh', createdAt: now, lastSeen: now, ...flags });
      await tx.chat.setVisitorFlags(clientId, flags);
    }
    await d.putEntryLink(DEMO.entryParam, demoEntryRaw(agents[0]?.account ?? 'demo'));
    await tx.setMeta('seeded', new Date(now).toISOString());
  });
  return true;
}

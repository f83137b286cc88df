/**
 * The zh texts of the notices the SDK emits by itself: bundled with its start-up code, so that a
 * notice has a text before any catalogue has loaded. The rest of the interface texts load with
 * their catalogue (zh included).
 * @module
 */

/**
 * The zh texts of the SDK's own notices (spec §8 messages the SDK shows; a `notice` event's text).
 * The zh catalogue holds them too.
 * @hidden
 */
export const zhNotices = {
  sendFailed: '发送失败',
  networkError: '网络异常，请稍后重试',
  blacklisted: '您已被拉黑，无法使用评价功能',
  sendTooFrequent: '发送太频繁了',
  blankMessage: '不能发送空白消息',
  requestFailed: '请求失败',
  requestTimeout: '请求超时，请检查网络',
  requestTooFrequent: '请求频繁，请稍后再试',
  videoTooLarge: '视频文件过大，上传超时',
  uploadFailed: '上传失败',
  serviceBusy: '客服当前繁忙',
  agentLeft: '人工客服已离开。您可以转接其他客服，或给我们留言。',
  conversationOver: '会话已结束',
  banned: '您已被禁止访问，请联系管理员',
  rateRequired: '请对本次服务进行评价',
  identityReset: '您之前的对话在此设备上不可用。',
  tooManyConnections: '此对话在太多窗口或设备上打开。请关闭其中一个后重新连接。',
} as const;

/** A text key the SDK emits a notice with (its zh text is bundled). */
export type NoticeKey = keyof typeof zhNotices;

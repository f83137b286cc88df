/**
 * Simplified Chinese: the key language. Every other catalogue has exactly these keys.
 * @module
 */
import { zhNotices } from './zh-notices.js';

/**
 * The Simplified Chinese catalogue (the key language and the fallback): every text key of the
 * interface with its text. Other catalogues have exactly these keys.
 * @hidden
 */
export const zh = {
  // the SDK's own notices (bundled with the SDK's start-up code)
  ...zhNotices,

  // spec §8, user-visible messages
  alreadyRated: '您已经评价过了',
  linkBroken: '链接已失效',
  videoCannotPlay: '该视频暂时无法播放',
  submitFailed: '提交失败',
  rateFailed: '评价失败',
  closingSoon: '即将关闭，请勿刷新',
  openInBrowser: '请在浏览器中打开',
  enterIdNumber: '请输入ID号',
  enterGroupLink: '请输入群链接',
  enterLink: '请输入链接',

  // routes (spec §2)
  routeConversation: '会话页',
  routeGroup: '客服会话',
  routeRedirect: '重定向页',
  notFound: '页面不存在',
  unauthorised: '无权访问',
  backHome: '返回首页',

  // chat
  send: '发送',
  inputPlaceholder: '请输入消息…',
  loadMore: '加载更多',
  loadHistory: '查看历史消息',
  noMoreMessages: '没有更多消息了',
  newMessages: '有新消息',
  suggestedQuestions: '猜你想问',
  transferToHuman: '转人工',
  transferConfirm: '是否前往人工客服界面?',
  confirm: '确定',
  cancel: '取消',
  close: '关闭',
  waitingForAgent: '正在为您接入人工客服，请稍候…',
  queuePosition: '您当前排在第 {position} 位',
  agentJoined: '客服 {name} 为您服务',
  restartChat: '重新开始会话',
  endConversation: '结束会话',

  // rating
  rateTitle: '服务评价',
  rateVerySatisfied: '非常满意',
  rateSatisfied: '满意',
  rateAverage: '一般',
  rateDissatisfied: '不满意',
  rateVeryDissatisfied: '非常不满意',
  rateRemarkPlaceholder: '请输入您的意见或建议（选填）',
  rateThanks: '感谢您的评价',
  submit: '提交',

  // complaint (spec §3; limits as {max})
  complaint: '投诉',
  complaintAccount: '会员账号或手机号',
  complaintDescription: '投诉描述',
  complaintTime: '发生时间',
  complaintImages: '图片（最多 {max} 张）',
  complaintVideo: '视频（最多 {max} 个）',
  complaintSubmitted: '投诉已提交',
  required: '必填',
  optional: '选填',
  fieldRequired: '请填写{field}',

  // leave a message
  leaveMessage: '留言',
  leaveMessageHint: '客服当前不在线，请留言，我们会尽快回复您',
  leaveMessageName: '姓名',
  leaveMessageContact: '联系方式',
  leaveMessageContent: '留言内容',
  leaveMessageSubmitted: '留言成功，我们会尽快与您联系',

  // deposit card (spec §3)
  depositCard: '存款信息',
  depositUserAccount: '用户账号',
  depositUserMchId: '用户商户ID',
  depositMchOrderNo: '商户订单号',
  depositAmount: '订单金额',
  depositStatus: '资金订单状态',

  // pickers, search, translation
  remindPeople: '选择提醒的人',
  searchPlaceholder: '搜索',
  noResults: '无结果',
  translate: '翻译',
  translating: '翻译中…',
  translateFailed: '翻译失败',

  // message rows
  read: '已读',
  unread: '未读',
  robot: '机器人',
  agent: '客服',
  image: '图片',
  file: '文件',
  video: '视频',
  emoji: '表情',
  download: '下载',
  uploading: '上传中',
  uploadProgress: '上传中 {percent}%',
  fileTooLarge: '文件过大',
  tooManyFiles: '最多只能选择 {max} 个文件',
  retry: '重试',
  sending: '发送中',
  failed: '失败',

  // connection states (spec §4)
  connecting: '连接中…',
  reconnecting: '正在重新连接…',
  offline: '网络已断开',
  connectionFailed: '连接失败',

  // agent desk
  agentLogin: '客服登录',
  account: '账号',
  password: '密码',
  login: '登录',
  logout: '退出登录',
  queue: '排队',
  accept: '接入',
  noVisitorsWaiting: '暂无访客排队',
  online: '在线',
  sessions: '会话',
  waitingSince: '已等待 {minutes} 分钟',

  fileTooLargeToKeep: '文件太大，刷新后无法保留，请重新选择',
} as const;

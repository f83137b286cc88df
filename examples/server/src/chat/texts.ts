/**
 * The robot's and the server's own texts, in the FAQ languages (Chinese and English).
 * @module
 */

/** The server's texts in one language. */
export interface ServerTexts {
  /** Greeting at session start, pointing to the suggested questions shown with it. */
  greeting: string;
  /** Greeting at session start when the merchant has no questions to suggest. */
  greetingNoQuestions: string;
  /** The robot did not understand. */
  notUnderstood: string;
  /** Sent after a transfer when no agent is online. */
  busy: string;
  /** Sent after a transfer outside business hours. */
  closed: string;
  /** Sent when the visitor joins the queue with agents online. */
  queued: (position: number) => string;
  /** Sent when the serving agent logged out or stayed away past the grace period. */
  agentLeft: string;
  /** The robot's name suffix. */
  robotName: string;
}

const ZH: ServerTexts = {
  greeting: '您好，我是智能客服，请问有什么可以帮您？您可以点击下面的问题，或直接输入。',
  greetingNoQuestions: '您好，我是智能客服，请问有什么可以帮您？请直接输入您的问题。',
  notUnderstood: '抱歉，我没有理解您的问题。您可以换个说法，选择下面的问题，或转人工客服。',
  busy: '客服当前繁忙，您可以留言，我们会尽快回复您。',
  closed: '现在不在人工客服的服务时间内。您可以留言，我们上班后会尽快回复您。',
  queued: (position) => `正在为您转接人工客服，您前面还有 ${position - 1} 位。`,
  agentLeft: '人工客服已离开本次会话。您可以转接其他客服，或给我们留言。',
  robotName: '智能客服',
};

const EN: ServerTexts = {
  greeting: 'Hello, I am the service assistant. How can I help you? Pick a question below or type your own.',
  greetingNoQuestions: 'Hello, I am the service assistant. How can I help you? Please type your question.',
  notUnderstood:
    'Sorry, I did not understand. Try other words, pick a question below, or ask for a human agent.',
  busy: 'Customer service is currently busy. You may leave a message and we will reply as soon as possible.',
  closed: 'Our agents are outside their business hours now. You may leave a message and we will reply when we are back.',
  queued: (position) => `Connecting you to an agent. ${position - 1} visitor(s) ahead of you.`,
  agentLeft: 'Your agent has left the conversation. You can ask for another agent or leave a message.',
  robotName: 'Assistant',
};

/**
 * The text keys of server-made texts that a client may show in its own language instead of the
 * stored text (docs/protocol.md "Text keys"): the greeting, which opens every conversation and
 * belongs to the interface more than to the conversation.
 */
export const TEXT_KEYS = Object.freeze({
  /** {@link ServerTexts.greeting}. */
  greeting: 'greeting',
  /** {@link ServerTexts.greetingNoQuestions}. */
  greetingNoQuestions: 'greeting-no-questions',
} as const);

/** The FAQ language for a visitor language: Chinese variants read Chinese, everything else English. */
export function faqLanguageOf(language: string): 'zh' | 'en' {
  return language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** The texts for a visitor language. */
export function textsFor(language: string): ServerTexts {
  return faqLanguageOf(language) === 'zh' ? ZH : EN;
}

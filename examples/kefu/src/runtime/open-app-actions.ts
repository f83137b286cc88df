/**
 * The deep-link actions behind `window.kefuOpenApp`, in a chunk of their own: nothing on the first
 * chat view needs them, so {@link installOpenAppHelpers} fetches them right after start-up.
 * @module
 */
export { openChat, openGroup, openLink } from '@kefu-im/sdk/embed';

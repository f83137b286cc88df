import { loadCatalogue, type Catalogue } from '@kefu-im/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { redirectTarget } from './redirect-page.js';
import { appText } from '../env/app-texts.js';
import { routeTitle, routeTitleText } from './titles.js';

let zh: Catalogue;
const t = (key: keyof Catalogue): string => zh[key];
beforeAll(async () => {
  zh = await loadCatalogue('zh');
});
const app = (key: Parameters<typeof appText>[1]): string => appText('zh', key);

describe('spec §2: "Before each navigation the document title is set from the route title, when there is one"', () => {
  it('gives each route of the table its title', () => {
    expect(routeTitleText('/kefu', t, app)).toBe('会话页');
    expect(routeTitleText('/kefu/abc', t, app)).toBe('会话页');
    expect(routeTitleText('/group/G1/Name', t, app)).toBe('客服会话');
    expect(routeTitleText('/redirect/kefu/x', t, app)).toBe('重定向页');
    expect(routeTitleText('/404', t, app)).toBe('404');
    expect(routeTitleText('/401', t, app)).toBe('401');
    expect(routeTitleText('/agent', t, app)).toBe('客服工作台登录'); // the desk's login; "客服工作台 · <account>" once logged in
  });

  it('gives "/" and unknown paths no title (they redirect)', () => {
    expect(routeTitle('/')).toBeNull();
    expect(routeTitle('/elsewhere')).toBeNull();
    expect(routeTitle('/kefux')).toBeNull();
  });
});

describe('spec §2: "/redirect/{path}: path may contain slashes"', () => {
  it('goes to the path with its slashes and the query', () => {
    expect(redirectTarget('kefu/abc/def', 'x=1')).toBe('/kefu/abc/def?x=1');
    expect(redirectTarget('404', '')).toBe('/404');
    expect(redirectTarget(undefined, '')).toBe('/');
  });

  it('never leaves the site (no protocol-relative or backslash paths)', () => {
    expect(redirectTarget('/evil.example/x', '')).toBe('/evil.example/x');
    expect(redirectTarget('\\\\evil.example', '')).toBe('/evil.example');
    expect(redirectTarget('//evil.example', '')).toBe('/evil.example');
  });
});

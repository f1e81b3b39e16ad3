import type { AnalyticsEventRequest } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { reloadConsent, saveConsent } from '../consent/consent.ts';
import { server } from '../test/server.ts';
import { ANALYTICS_EVENTS_PATH, clickEvent, resetAnalytics, track } from './analytics.ts';

function captureEvents(): AnalyticsEventRequest[] {
  const received: AnalyticsEventRequest[] = [];
  server.use(
    http.get('/api/v1/csrf', () =>
      HttpResponse.json({ csrf_token: 'token' }, { headers: { 'set-cookie': 'csrf_token=token; Path=/' } }),
    ),
    http.post(ANALYTICS_EVENTS_PATH, async ({ request }) => {
      received.push((await request.json()) as AnalyticsEventRequest);
      return HttpResponse.json({ status: 'accepted' }, { status: 202 });
    }),
  );
  return received;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('analytics', () => {
  beforeEach(() => {
    reloadConsent();
    resetAnalytics();
  });

  it('sends nothing before the visitor chooses', async () => {
    const received = captureEvents();
    expect(track({ name: 'page_view', path: '/' })).toBe(false);
    await settle();
    expect(received).toEqual([]);
  });

  it('sends nothing with "necessary only"', async () => {
    const received = captureEvents();
    saveConsent('necessary');
    expect(track({ name: 'page_view', path: '/' })).toBe(false);
    expect(track({ name: 'cta_click', path: '/', target: 'home-hero-plans' })).toBe(false);
    await settle();
    expect(received).toEqual([]);
  });

  it('sends events with "all": the path without its query, and the language', async () => {
    const received = captureEvents();
    saveConsent('all');
    expect(track({ name: 'page_view', path: '/auth/reset-password?token=secret#x' }, 1000)).toBe(true);
    expect(track({ name: 'cta_click', path: '/', target: 'home-hero-plans' }, 1000)).toBe(true);
    await expect.poll(() => received.length).toBe(2);
    expect(received).toEqual([
      { name: 'page_view', path: '/auth/reset-password', language: 'en' },
      { name: 'cta_click', path: '/', target: 'home-hero-plans', language: 'en' },
    ]);
  });

  it('skips an identical event within 100 ms', async () => {
    const received = captureEvents();
    saveConsent('all');
    expect(track({ name: 'page_view', path: '/faq' }, 5000)).toBe(true);
    expect(track({ name: 'page_view', path: '/faq' }, 5060)).toBe(false);
    expect(track({ name: 'page_view', path: '/faq?x=1' }, 5099)).toBe(false);
    expect(track({ name: 'page_view', path: '/faq' }, 5100)).toBe(true);
    await expect.poll(() => received.length).toBe(2);
  });

  it('drops an event the server refuses, without throwing', async () => {
    server.use(
      http.get('/api/v1/csrf', () => HttpResponse.json({ csrf_token: 'token' })),
      http.post(ANALYTICS_EVENTS_PATH, () =>
        HttpResponse.json({ detail: 'too_many_attempts', message: 'Too many' }, { status: 429 }),
      ),
    );
    saveConsent('all');
    expect(track({ name: 'page_view', path: '/' })).toBe(true);
    await settle();
  });

  it('reads the clicks worth counting from data-analytics', () => {
    document.body.innerHTML = `
      <a data-analytics="cta_click:home-hero-plans"><span id="inside">See plans</span></a>
      <a data-analytics="solution_click:team-drive" id="solution">Team drive</a>
      <a data-analytics="purchase:card" id="unknown">?</a>
      <a id="plain">Plain</a>`;
    const element = (id: string) => document.getElementById(id) as Element;
    expect(clickEvent(element('inside'), '/')).toEqual({
      name: 'cta_click',
      path: '/',
      target: 'home-hero-plans',
    });
    expect(clickEvent(element('solution'), '/')).toEqual({
      name: 'solution_click',
      path: '/',
      target: 'team-drive',
    });
    expect(clickEvent(element('unknown'), '/')).toBeNull();
    expect(clickEvent(element('plain'), '/')).toBeNull();
    document.body.innerHTML = '';
  });
});

import {
  ACCOUNT_SOURCE_TYPES,
  MAX_SOURCES,
  MIN_SOURCES,
  sourceSchema,
  TEMPLATE_CATEGORIES,
  type Template,
  templateListResponseSchema,
} from '@digest/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '#server/modules/digests/test-support';
import { signUp, startTestApp, type TestApp, type TestUser } from '#server/modules/users/test-support';
import { startTestApi } from '#server-test/test-api';
import { startFakeProviders } from '#test/fakes/fake-providers';
import { TEMPLATE_SOURCE_INPUTS } from './templates.data';
import { listTemplates } from './templates.routes';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  user = await signUp(t);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/digests/web/:category answers real starting points', () => {
  it('leaves nothing out on a server without provider keys: Product Hunt reads its public feed', async () => {
    // This test app has no provider keys: no Product Hunt token, no YouTube key.
    const all = await Promise.all(
      TEMPLATE_CATEGORIES.map(async (category) => {
        const response = await call(t.app, user, 'GET', `/api/digests/web/${category}`);
        return templateListResponseSchema.parse(response.json()).templates;
      }),
    );
    const templates = all.flat();
    expect(templates.map((template) => template.note)).toEqual(templates.map(() => null));
    const techIndustry = templates.find((template) => template.templateId === 'tech-industry');
    expect(techIndustry?.sources.map((source) => source.type)).toContain('PRODUCT_HUNT');
  });

  it('offers every kind of a template on a server that can serve them all', async () => {
    const fakes = await startFakeProviders();
    const keyed = await startTestApi({ fakes });
    try {
      const owner = await signUp(keyed);
      const response = await call(keyed.app, owner, 'GET', '/api/digests/web/tech');
      const { templates } = templateListResponseSchema.parse(response.json());
      const techIndustry = templates.find((template) => template.templateId === 'tech-industry');
      expect(techIndustry?.note).toBeNull();
      expect(techIndustry?.sources.map((source) => source.type)).toContain('PRODUCT_HUNT');
    } finally {
      await keyed.close();
      await fakes.close();
    }
  });

  it.each(TEMPLATE_CATEGORIES)(
    '%s: named templates whose sources are valid under the contracts',
    async (category) => {
      const response = await call(t.app, user, 'GET', `/api/digests/web/${category}`);
      expect(response.statusCode).toBe(200);
      const { templates } = templateListResponseSchema.parse(response.json());
      expect(templates.length).toBeGreaterThan(0);
      for (const template of templates) {
        expect(template.name).toBeTruthy();
        expect(template.description).toBeTruthy();
        // Enough sources to become a digest as they are, none that needs someone's connected account.
        expect(template.sources.length).toBeGreaterThanOrEqual(MIN_SOURCES);
        expect(template.sources.length).toBeLessThanOrEqual(MAX_SOURCES);
        for (const source of template.sources) {
          expect(sourceSchema.parse(source)).toEqual(source);
          expect(ACCOUNT_SOURCE_TYPES as readonly string[]).not.toContain(source.type);
        }
      }
    },
  );

  it('the templates as written pass the contracts (strict: no unknown field)', () => {
    for (const list of Object.values(TEMPLATE_SOURCE_INPUTS)) {
      for (const template of list) {
        for (const source of template.sources) expect(sourceSchema.safeParse(source).success).toBe(true);
      }
    }
  });

  it('gives every template its own id', () => {
    const ids = Object.values(TEMPLATE_SOURCE_INPUTS).flatMap((list) =>
      list.map((template) => template.templateId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a template becomes a digest as it is', async () => {
    const { templates } = (await call(t.app, user, 'GET', '/api/digests/web/tech')).json();
    const response = await call(t.app, user, 'POST', '/api/digests', {
      name: templates[0].name,
      sources: templates[0].sources,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().digest.sources).toEqual(templates[0].sources);
  });

  it('answers 404 for an unknown category and 401 without a session', async () => {
    const unknown = await call(t.app, user, 'GET', '/api/digests/web/gossip');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      code: 'TEMPLATE_CATEGORY_NOT_FOUND',
      message: 'No templates in the category "gossip".',
    });
    expect((await call(t.app, null, 'GET', '/api/digests/web/popular')).statusCode).toBe(401);
  });
});

describe('a template as a server that cannot serve some kinds offers it', () => {
  const sourceTypes = (template: Template | undefined) => template?.sources.map((source) => source.type);

  it('leaves out the sources of a kind the server cannot serve, with a note saying why', () => {
    const templates = listTemplates('tech', {
      PRODUCT_HUNT: 'Product Hunt is not reachable from this server',
    });
    const techIndustry = templates.find((template) => template.templateId === 'tech-industry');
    expect(techIndustry?.note).toBe('Left out: Product Hunt is not reachable from this server.');
    expect(sourceTypes(techIndustry)).toEqual(['HACKER_NEWS', 'RSS', 'RSS', 'RSS']);
    const untouched = templates.find((template) => template.templateId === 'tech-developers');
    expect(untouched?.note).toBeNull();
  });

  it('names each reason once, and offers no template left under the minimum of sources', () => {
    const unservable = { RSS: 'Feeds are off', PRODUCT_HUNT: 'No token' };
    const all = TEMPLATE_CATEGORIES.flatMap((category) => listTemplates(category, unservable));
    for (const template of all) {
      expect(template.sources.length).toBeGreaterThanOrEqual(MIN_SOURCES);
      expect(sourceTypes(template)).not.toContain('RSS');
      expect(template.note?.split('Feeds are off').length ?? 1).toBeLessThanOrEqual(2);
    }
    expect(all.some((template) => template.note === 'Left out: Feeds are off.')).toBe(true);
    expect(all.map((template) => template.templateId)).not.toContain('tech-industry');
  });
});

import { MAX_SOURCES, type Source, type Template } from '@digest/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notifyError, notifySuccess } from '#web/lib/notify';
import { initialBuilderState, useBuilderStore } from '../store';
import { applyTemplate, templateNotice, templateSources } from './templates';
import { testTemplate } from './test-support';

vi.mock('#web/lib/notify', () => ({ notifyError: vi.fn(), notifySuccess: vi.fn() }));

const weather = { type: 'WEATHER', name: 'Weather', showHeading: true } as Source;
const types = () => useBuilderStore.getState().blocks.map((block) => block.source.type);

/** A source the contracts refuse (more posts than Reddit allows), as a bad answer could hold. */
const broken = { ...testTemplate().sources[2], numberOfPosts: 999 } as Template['sources'][number];

beforeEach(() => {
  useBuilderStore.setState(initialBuilderState, true);
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
});

describe("a template's sources (never trusted)", () => {
  it('keeps those the contracts accept, in order, and skips one that fails', () => {
    const template = testTemplate();
    expect(templateSources(template).map((source) => source.type)).toEqual(['DATE', 'RSS', 'REDDIT']);
    const sources = [broken, ...template.sources.slice(0, 2)];
    expect(templateSources({ ...template, sources }).map((source) => source.type)).toEqual(['DATE', 'RSS']);
  });
});

describe("Use template's notice", () => {
  it('says how many sources were added', () => {
    expect(templateNotice('World news', { total: 6, valid: 6, added: 6 })).toEqual({
      kind: 'success',
      message: 'Added 6 sources from World news',
    });
  });

  it('says how many were left out by the 20 limit, and how many could not be read', () => {
    expect(templateNotice('World news', { total: 6, valid: 6, added: 2 })).toEqual({
      kind: 'error',
      message: 'Added 2 of the 6 sources of World news. A Digest can have at most 20 sources: 4 left out.',
    });
    expect(templateNotice('World news', { total: 6, valid: 5, added: 5 }).message).toBe(
      'Added 5 of the 6 sources of World news. 1 source could not be read.',
    );
  });
});

describe('Use template', () => {
  it("adds the template's sources at the chosen position and says so; the name stays unset", () => {
    useBuilderStore.setState({ blocks: [{ id: 'w', source: weather }], sourcePosition: 0 });
    applyTemplate(testTemplate());
    expect(types()).toEqual(['DATE', 'RSS', 'REDDIT', 'WEATHER']);
    expect(useBuilderStore.getState().name).toBeNull();
    expect(notifySuccess).toHaveBeenCalledWith('Added 3 sources from World news');
  });

  it('adds only what fits under 20 and says how many were left out', () => {
    const blocks = Array.from({ length: MAX_SOURCES - 1 }, (_, index) => ({
      id: `b${index}`,
      source: weather,
    }));
    useBuilderStore.setState({ blocks, sourcePosition: blocks.length });
    applyTemplate(testTemplate());
    expect(types()).toHaveLength(MAX_SOURCES);
    expect(types().at(-1)).toBe('DATE');
    expect(notifyError).toHaveBeenCalledWith(
      'Added 1 of the 3 sources of World news. A Digest can have at most 20 sources: 2 left out.',
    );
  });
});

// @vitest-environment happy-dom
import { SOURCE_SCHEMAS, type Source } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '#web/lib/query-client';
import { endSession, startSession } from '#web/lib/session/session';
import { editDigest, resetBuilder } from '../store';
import { useBlockPreview } from './preview-api';

const source = SOURCE_SCHEMAS.HACKER_NEWS.parse({ type: 'HACKER_NEWS' }) as Source;
const DIGEST_ID = '7c3e4d2a-1b5f-4e8a-9c6d-2f1a3b4c5d6e';

/** The bodies the previews POST, answering each with empty content. */
function stubPreviews() {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ content: { stories: [] } }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return bodies;
}

function previewOf(item: Source) {
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useBlockPreview(item), { wrapper });
}

beforeEach(() => startSession({ accessToken: 'access-1' }));
afterEach(() => {
  cleanup();
  endSession();
  vi.unstubAllGlobals();
});

describe('a builder preview tells the health of the saved digest it is edited in (issue 17)', () => {
  it('sends the digest id while a saved digest is edited', async () => {
    const bodies = stubPreviews();
    editDigest(DIGEST_ID);
    const preview = previewOf(source);
    await waitFor(() => expect(preview.result.current.loading).toBe(false));
    expect(bodies).toEqual([{ source, digestId: DIGEST_ID }]);
  });

  it('sends the source alone for a digest not saved yet', async () => {
    const bodies = stubPreviews();
    resetBuilder();
    const preview = previewOf(source);
    await waitFor(() => expect(preview.result.current.loading).toBe(false));
    expect(bodies).toEqual([{ source }]);
  });
});

import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '#web/lib/paths';
import { editDigest, editDraft, resetBuilder } from './store';

/** Opens /digestCreator: for a new digest, a draft or an existing digest. */
export function useOpenBuilder() {
  const navigate = useNavigate();
  return {
    createDigest: useCallback(() => {
      resetBuilder();
      navigate(paths.digestCreator);
    }, [navigate]),
    editDraft: useCallback(
      (draftId: string) => {
        editDraft(draftId);
        navigate(paths.digestCreator);
      },
      [navigate],
    ),
    editDigest: useCallback(
      (digestId: string) => {
        editDigest(digestId);
        navigate(paths.digestCreator);
      },
      [navigate],
    ),
  };
}

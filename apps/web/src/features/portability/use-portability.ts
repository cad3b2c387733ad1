import type { OpmlFolderDigestsInput } from '@digest/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { digestKeys } from '#web/features/digests';
import { errorMessage } from '#web/lib/api-client';
import { notifyError, notifySuccess } from '#web/lib/notify';
import { createFolderDigests, fetchAccountArchive, fetchDigestOpml } from './api/portability-api';
import { fileNameOf, saveFile } from './lib/save-file';

/** One digest per folder; the lists reload and the user is told how many were made. */
export function useCreateFolderDigests() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OpmlFolderDigestsInput) => createFolderDigests(body),
    onSuccess: ({ digests }) => {
      void queryClient.invalidateQueries({ queryKey: digestKeys.all });
      notifySuccess(
        `Created ${digests.length} ${digests.length === 1 ? 'Digest' : 'Digests'}: ${digests.map((d) => d.name).join(', ')}`,
      );
    },
  });
}

/** "Export feeds (OPML)": the digest's feeds saved as `{name}.opml`. */
export function useExportDigestOpml() {
  return useMutation({
    mutationFn: async ({ digestId, name }: { digestId: string; name: string }) =>
      saveFile(await fetchDigestOpml(digestId), fileNameOf(name, 'opml')),
    onError: (error) => notifyError(errorMessage(error)),
  });
}

/** "Download all my data (JSON)". */
export function useDownloadArchive() {
  return useMutation({
    mutationFn: async () => saveFile(await fetchAccountArchive(), 'digest-archive.json'),
    onError: (error) => notifyError(errorMessage(error)),
  });
}

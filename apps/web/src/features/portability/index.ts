/** Taking feeds and data in and out of Digest: OPML import and export, the account's archive. */

export { OpmlImportDialog } from './components/OpmlImportDialog';
export { useCreateFolderDigests, useDownloadArchive, useExportDigestOpml } from './use-portability';

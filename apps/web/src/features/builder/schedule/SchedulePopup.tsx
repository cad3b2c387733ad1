import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Modal } from '#web/components/ui/Modal';
import { errorMessage } from '#web/lib/api-client';
import { paths } from '#web/lib/paths';
import { useCurrentUser } from '#web/lib/session/use-me';
import { useBlockPreviews } from '../api/preview-api';
import {
  resetBuilder,
  setIssueRetention,
  setMinSourcesToSend,
  setSchedule,
  setSendOnlyWhenNew,
  setSubscribers,
  useBuilderStore,
} from '../store';
import { doneBlockedReason } from './done-blocker';
import {
  BuildingStep,
  DoneStep,
  ErrorStep,
  ScheduleForm,
  type ScheduleStep,
  scheduleStepTitle,
} from './ScheduleSteps';
import { initialTimeZone, scheduleZoneOptions } from './schedule-options';
import { useCompleteDigest } from './use-complete-digest';

/**
 * docs/product.md §2 "Schedule popup", opened by Complete: init → building → done, or error (Edit goes back to init).
 * It cannot be closed while building; closing it once done leaves like Go to Digests, since the digest is
 * saved and the builder's work is over.
 */
export function SchedulePopup({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const complete = useCompleteDigest();
  const editing = useBuilderStore((state) => state.editDigestId !== null);
  const [zone, setZone] = useState(() => initialTimeZone(user));

  let step: ScheduleStep = 'init';
  if (complete.isPending) step = 'building';
  else if (complete.isSuccess) step = 'done';
  else if (complete.isError) step = 'error';

  function goToDigests() {
    resetBuilder();
    navigate(paths.digests);
  }

  function changeOpen(next: boolean) {
    if (next || step === 'init') return onOpenChange(next);
    if (step === 'done') return goToDigests();
    if (step === 'error') {
      complete.reset();
      onOpenChange(false);
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={changeOpen}
      title={scheduleStepTitle(step, editing)}
      hideClose={step === 'building'}
    >
      {!open ? null : step === 'init' ? (
        <InitStep
          zone={zone}
          onZoneChange={setZone}
          submitLabel={editing ? 'Update digest' : 'Done'}
          onSubmit={() => complete.mutate({ user, zone })}
        />
      ) : step === 'building' ? (
        <BuildingStep />
      ) : step === 'done' ? (
        <DoneStep email={user.email} notices={complete.data?.notices ?? []} onGoToDigests={goToDigests} />
      ) : (
        <ErrorStep message={errorMessage(complete.error)} onEdit={() => complete.reset()} />
      )}
    </Modal>
  );
}

/** The init step's data: schedule and friends live in the builder store (edit mode loads them there). */
function InitStep({
  zone,
  onZoneChange,
  submitLabel,
  onSubmit,
}: {
  zone: string;
  onZoneChange: (zone: string) => void;
  submitLabel: string;
  onSubmit: () => void;
}) {
  const user = useCurrentUser();
  const schedule = useBuilderStore((state) => state.schedule);
  const retention = useBuilderStore((state) => state.issueRetentionMonths);
  const sendOnlyWhenNew = useBuilderStore((state) => state.sendOnlyWhenNew);
  const minSourcesToSend = useBuilderStore((state) => state.minSourcesToSend);
  const friends = useBuilderStore((state) => state.subscribers);
  const blocks = useBuilderStore((state) => state.blocks);
  const sources = useMemo(() => blocks.map((block) => block.source), [blocks]);
  const previews = useBlockPreviews(sources);
  const zoneOptions = useMemo(() => scheduleZoneOptions(user), [user]);
  return (
    <ScheduleForm
      zone={zone}
      zoneOptions={zoneOptions}
      onZoneChange={onZoneChange}
      schedule={schedule}
      onScheduleChange={setSchedule}
      retention={retention}
      onRetentionChange={setIssueRetention}
      sendOnlyWhenNew={sendOnlyWhenNew ?? false}
      onSendOnlyWhenNewChange={setSendOnlyWhenNew}
      minSourcesToSend={minSourcesToSend ?? 0}
      onMinSourcesToSendChange={setMinSourcesToSend}
      friends={friends}
      onFriendsChange={setSubscribers}
      submitLabel={submitLabel}
      blockedReason={doneBlockedReason(blocks, previews)}
      onSubmit={onSubmit}
    />
  );
}

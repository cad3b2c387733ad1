import { type DragEvent, useCallback, useEffect, useId, useState } from 'react';
import Cropper from 'react-easy-crop';
import 'react-easy-crop/react-easy-crop.css';
import { Alert } from '#web/components/ui/Alert';
import { Button } from '#web/components/ui/Button';
import { UploadIcon } from '#web/components/ui/icons';
import { Modal } from '#web/components/ui/Modal';
import { MEDIA_QUERIES } from '#web/lib/breakpoints';
import { useMediaQuery } from '#web/lib/use-media-query';
import { useUploadPhoto } from '../api/use-profile';
import { type Area, cropToPng, openPhoto, PHOTO_ACCEPT } from '../lib/photo';
import styles from './PhotoModal.module.css';

/** docs/product.md §9: crop viewport 160 px circle on desktop, 110 px on phones. */
const CROP_SIDE = { desktop: 160, mobile: 110 } as const;
const MIN_ZOOM = 1;
const MAX_ZOOM = 4;

interface PhotoModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * docs/product.md §2/§4 photo modal: 'Upload photo' (click or drag and drop), then 'Crop and set photo' with a round
 * crop and zoom (slider, or ctrl + wheel); 'Crop & Set Avatar' uploads a PNG and closes.
 */
export function PhotoModal({ open, onOpenChange }: PhotoModalProps) {
  const [image, setImage] = useState<string | null>(null);
  const upload = useUploadPhoto();

  // The object URL lives as long as the crop view shows it.
  useEffect(() => {
    if (!image) return;
    return () => URL.revokeObjectURL(image);
  }, [image]);

  const close = (next: boolean) => {
    if (upload.isPending) return;
    onOpenChange(next);
    if (!next) setImage(null);
  };

  return (
    <Modal open={open} onOpenChange={close} title={image ? 'Crop and set photo' : 'Upload photo'}>
      {image ? (
        <CropStep
          image={image}
          pending={upload.isPending}
          onAnother={() => setImage(null)}
          onCropped={(png) =>
            upload.mutate(png, {
              onSuccess: () => {
                onOpenChange(false);
                setImage(null);
              },
            })
          }
        />
      ) : (
        <ChooseStep onChosen={setImage} />
      )}
    </Modal>
  );
}

function ChooseStep({ onChosen }: { onChosen: (url: string) => void }) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [checking, setChecking] = useState(false);

  const take = useCallback(
    async (file: File | undefined) => {
      if (!file) return;
      setChecking(true);
      const result = await openPhoto(file);
      setChecking(false);
      if ('error' in result) setError(result.error);
      else onChosen(result.url);
    },
    [onChosen],
  );

  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    void take(event.dataTransfer.files[0]);
  };

  return (
    <div className={styles.choose}>
      <label
        htmlFor={inputId}
        className={dragging ? `${styles.dropzone} ${styles.dragging}` : styles.dropzone}
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => event.preventDefault()}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        aria-busy={checking || undefined}
      >
        <span className={styles.dropIcon}>
          <UploadIcon />
        </span>
        <span className={styles.dropText}>
          <strong className={styles.clickText}>Click to upload</strong> or drag and drop
        </span>
        <span id={hintId} className={styles.hint}>
          SVG, PNG, JPG or GIF (max. 5 MB, at least 100x100px)
        </span>
      </label>
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        accept={PHOTO_ACCEPT}
        aria-describedby={hintId}
        onChange={(event) => {
          setError(null);
          void take(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}

interface CropStepProps {
  image: string;
  pending: boolean;
  onAnother: () => void;
  onCropped: (png: Blob) => void;
}

function CropStep({ image, pending, onAnother, onCropped }: CropStepProps) {
  const mobile = useMediaQuery(MEDIA_QUERIES.mobile);
  const side = mobile ? CROP_SIDE.mobile : CROP_SIDE.desktop;
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [error, setError] = useState<string | null>(null);
  const zoomId = useId();

  const submit = async () => {
    if (!area) return;
    try {
      onCropped(await cropToPng(image, area));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The image could not be cropped.');
    }
  };

  return (
    <div className={styles.cropStep}>
      <div className={styles.cropArea}>
        <Cropper
          // A new crop size (phone ↔ larger screen) needs a fresh cropper: it only partly re-measures.
          key={side}
          image={image}
          crop={crop}
          zoom={zoom}
          minZoom={MIN_ZOOM}
          maxZoom={MAX_ZOOM}
          aspect={1}
          cropShape="round"
          cropSize={{ width: side, height: side }}
          showGrid={false}
          objectFit="contain"
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={(_percent, pixels) => setArea(pixels)}
          // docs/product.md §2: zoom with ctrl + wheel; a plain wheel scrolls the page as usual.
          onWheelRequest={(event) => event.ctrlKey}
          disableAutomaticStylesInjection
          mediaProps={{ alt: 'The chosen image' }}
        />
      </div>
      <div className={styles.zoom}>
        <label htmlFor={zoomId} className={styles.zoomLabel}>
          Zoom
        </label>
        <input
          id={zoomId}
          type="range"
          min={MIN_ZOOM}
          max={MAX_ZOOM}
          step={0.05}
          value={zoom}
          onChange={(event) => setZoom(Number(event.target.value))}
          className={styles.range}
        />
      </div>
      <p className={styles.hint}>Drag to move the image. Use the slider, or hold Ctrl and scroll, to zoom.</p>
      {error ? <Alert>{error}</Alert> : null}
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onAnother} disabled={pending}>
          Upload another image
        </Button>
        <Button onClick={() => void submit()} loading={pending} disabled={!area}>
          Crop &amp; Set Avatar
        </Button>
      </div>
    </div>
  );
}

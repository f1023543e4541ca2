import { Alert, Radio, Skeleton, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import type { MarketHost } from '../../../api/compute';
import { usePrivateImagesQuery, type PrivateImageView } from '../../../api/images';
import { QueryError } from '../../../components/QueryError';
import { COMPUTE_PATHS } from '../paths';
import { privateImageChoices, runsOnHost } from './images';
import { CREATE_INSTANCE_TEXTS } from './texts';
import './privateImages.css';

const T = CREATE_INSTANCE_TEXTS;

interface PrivateImagePickerProps {
  host: MarketHost;
  value: PrivateImageView | undefined;
  /** The image the link or the user asked for: said so when it is not in the list. */
  wanted: string | undefined;
  onChange: (imageId: string) => void;
}

function PrivateImageOption({ image, hostCuda }: { image: PrivateImageView; hostCuda: string }) {
  const saving = image.status === 'saving';
  const runs = runsOnHost(image, hostCuda);
  return (
    <Radio value={image.imageId} disabled={saving || !runs} className="slg-create-image">
      <span className="slg-create-image-label">
        <span className="slg-create-private-name">
          <span>{image.name}</span>
          {image.sharedFrom ? <Tag color="blue">{T.image.sharedFrom(image.sharedFrom)}</Tag> : null}
          {saving ? <Tag color="processing">{T.image.saving}</Tag> : null}
        </span>
        <Typography.Text type="secondary" className="slg-create-image-note">
          {/* A saving image's size is the one it is saved from, not its own yet. */}
          {T.image.privateDetail(image.baseImageName, image.cuda, saving ? null : image.sizeGb)}
        </Typography.Text>
        {saving ? (
          <Typography.Text type="secondary" className="slg-create-image-note">
            {T.image.savingNote}
          </Typography.Text>
        ) : runs ? null : (
          <Typography.Text type="secondary" className="slg-create-image-note">
            {T.image.incompatible(image.cuda, hostCuda)}
          </Typography.Text>
        )}
      </span>
    </Radio>
  );
}

/**
 * 我的镜像: my ready images, then those shared with me; saving ones shown disabled (the list polls until
 * they are saved), failed ones left out, and the ones the host's driver cannot run disabled with the reason.
 */
export function PrivateImagePicker({ host, value, wanted, onChange }: PrivateImagePickerProps) {
  const images = usePrivateImagesQuery();
  if (images.isPending) return <Skeleton active title={false} paragraph={{ rows: 3 }} />;
  if (images.isError) return <QueryError title={T.image.privateLoadFailed} error={images.error} onRetry={() => void images.refetch()} />;
  const choices = privateImageChoices(images.data.list);
  const wantedMissing = wanted !== undefined && !choices.some((image) => image.imageId === wanted);
  if (choices.length === 0) {
    return (
      <div className="slg-create-images">
        {wantedMissing ? <Alert type="warning" showIcon title={T.image.linkedMissing} /> : null}
        <Typography.Text type="secondary" className="slg-create-private-empty">
          {T.image.privateEmpty} <Link to={COMPUTE_PATHS.privateImages}>{T.image.privateEmptyAction}</Link>
        </Typography.Text>
      </div>
    );
  }
  return (
    <div className="slg-create-images">
      {wantedMissing ? <Alert type="warning" showIcon title={T.image.linkedMissing} /> : null}
      <Radio.Group
        aria-label={T.image.privateSource}
        name="private-image"
        className="slg-create-image-list"
        value={value?.imageId}
        onChange={(event) => onChange(String(event.target.value))}
      >
        {choices.map((image) => (
          <PrivateImageOption key={image.imageId} image={image} hostCuda={host.cudaVersion} />
        ))}
      </Radio.Group>
    </div>
  );
}

import { Select, Typography } from 'antd';
import { Link } from 'react-router';
import { usePrivateImagesQuery, type PrivateImageView } from '../../../api/images';
import { usePublicImages, type PublicImage } from '../../../api/meta';
import { QueryError } from '../../../components/QueryError';
import { permissionList, useUserStore } from '../../../stores/user';
import { ELASTIC_PATHS } from '../paths';
import { ELASTIC_TEXTS } from '../texts';

const T = ELASTIC_TEXTS.fields;

/** Whether the caller may use private images (a sub-account needs the MIRROR authority); true while not known. */
function useMayUsePrivateImages(): boolean {
  const user = useUserStore((state) => state.userInfo);
  return permissionList(user)?.includes('MIRROR') ?? true;
}

export interface ElasticImages {
  publicImages: readonly PublicImage[] | undefined;
  privateImages: readonly PrivateImageView[] | undefined;
  /** The CUDA an image needs (undefined while the lists load, or for an unknown image). */
  cudaOf: (imageId: string | undefined) => string | undefined;
  publicQuery: ReturnType<typeof usePublicImages>;
}

/** The images a deployment can run: the public ones, and my images and those shared with me (MIRROR). */
export function useElasticImages(): ElasticImages {
  const publicQuery = usePublicImages();
  const mayUsePrivate = useMayUsePrivateImages();
  const privateQuery = usePrivateImagesQuery(mayUsePrivate);
  const privateImages = mayUsePrivate ? privateQuery.data?.list.filter((image) => image.status !== 'failed') : [];
  return {
    publicImages: publicQuery.data,
    privateImages,
    cudaOf: (imageId) =>
      imageId ? (publicQuery.data?.find((image) => image.id === imageId)?.cuda ?? privateImages?.find((image) => image.imageId === imageId)?.cuda) : undefined,
    publicQuery,
  };
}

interface ImageSelectProps {
  id?: string;
  value?: string;
  onChange?: (imageId: string) => void;
  images: ElasticImages;
  invalid?: boolean;
}

/** One select over the public images (grouped by framework) and my images; saving ones disabled. */
export function ImageSelect({ id, value, onChange, images, invalid }: ImageSelectProps) {
  const { publicImages, privateImages, publicQuery } = images;
  if (publicQuery.isError && !publicImages) return <QueryError title={T.imagesFailed} error={publicQuery.error} onRetry={() => void publicQuery.refetch()} />;
  const frameworks = new Map<string, PublicImage[]>();
  for (const image of publicImages ?? []) frameworks.set(image.framework, [...(frameworks.get(image.framework) ?? []), image]);
  const options = [
    ...[...frameworks].map(([framework, list]) => ({
      label: T.imagePublic(framework),
      title: T.imagePublic(framework),
      // A public image's name says its framework, Python and CUDA already.
      options: list.map((image) => ({ value: image.id, label: image.name })),
    })),
    ...(privateImages && privateImages.length > 0
      ? [
          {
            label: T.imagePrivate,
            title: T.imagePrivate,
            options: privateImages.map((image) => ({
              value: image.imageId,
              label: image.status === 'saving' ? `${T.imageLabel(image.name, image.cuda)} · ${T.imageSaving}` : T.imageLabel(image.name, image.cuda),
              disabled: image.status !== 'ready',
            })),
          },
        ]
      : []),
  ];
  return (
    <div className="slg-elastic-stack">
      <Select
        id={id}
        aria-label={T.image}
        value={value}
        onChange={onChange}
        options={options}
        loading={publicQuery.isPending}
        placeholder={T.imagePlaceholder}
        showSearch={{ optionFilterProp: 'label' }}
        status={invalid ? 'error' : undefined}
        className="slg-elastic-wide"
      />
      {privateImages && privateImages.length === 0 ? (
        <Typography.Text type="secondary" className="slg-elastic-note">
          {T.imageNoPrivate} <Link to={ELASTIC_PATHS.privateImages}>{T.imageNoPrivateAction}</Link>
        </Typography.Text>
      ) : null}
    </div>
  );
}

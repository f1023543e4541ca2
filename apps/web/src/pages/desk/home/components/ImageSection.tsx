import { ContainerOutlined } from '../../../../ui/icons/ContainerOutlined';
import { usePublicImages } from '../../../../api/meta';
import type { PublicImage } from '../../../../api/meta';
import { HOME_TEXTS } from '../texts';
import { gridClass } from './layout';
import QueryContent from './QueryContent';
import Section from './Section';
import Tag from './Tag';

const TEXTS = HOME_TEXTS.images;

function ImageCard({ image }: { image: PublicImage }) {
  const versions = [
    { key: 'python', label: TEXTS.python, value: image.python },
    { key: 'cuda', label: TEXTS.cuda, value: image.cuda },
    { key: 'ubuntu', label: TEXTS.ubuntu, value: image.ubuntu },
  ].filter((version) => version.value);

  return (
    <article className="slg-home-card" aria-labelledby={`image-${image.id}-name`}>
      <h3 id={`image-${image.id}-name`} className="slg-home-card-title" style={{ marginBottom: 12 }}>
        <ContainerOutlined aria-hidden />
        {image.name}
      </h3>
      <ul className="slg-home-tags">
        <li>
          <Tag tone="info">{`${image.framework} ${image.frameworkVersion}`.trim()}</Tag>
        </li>
        {versions.map((version) => (
          <li key={version.key}>
            <Tag>{`${version.label} ${version.value}`}</Tag>
          </li>
        ))}
      </ul>
    </article>
  );
}

export default function ImageSection() {
  const images = usePublicImages();

  return (
    <Section id="home-images" title={TEXTS.title} subtitle={TEXTS.subtitle} alt>
      <QueryContent query={images} errorTitle={TEXTS.error} emptyText={TEXTS.empty} grid="3" skeletonCount={3}>
        {(items) => (
          <div className={gridClass('3')}>
            {items.map((image) => (
              <ImageCard key={image.id} image={image} />
            ))}
          </div>
        )}
      </QueryContent>
    </Section>
  );
}

import { StarFilled, StarOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Tooltip } from 'antd';
import { favoriteDataset, invalidateDatasets, unfavoriteDataset, type DatasetView } from '../../../api/datasets';
import { toast } from '../../../api/toast';
import { DATA_SET_TEXTS } from '../texts';

const T = DATA_SET_TEXTS.favorite;

interface FavoriteButtonProps {
  dataset: DatasetView;
  /** With the word beside the star (a card's action row); a bare star otherwise. */
  withText?: boolean;
  size?: 'small' | 'middle';
}

/** 收藏 / 取消收藏 of a dataset: a star, filled once favourited; every list is read again after it. */
export function FavoriteButton({ dataset, withText = false, size }: FavoriteButtonProps) {
  const queryClient = useQueryClient();
  const favorited = dataset.favorited;
  const toggle = useMutation({
    mutationFn: () => (favorited ? unfavoriteDataset(dataset.id) : favoriteDataset(dataset.id)),
    onSuccess: async () => {
      toast.success(favorited ? T.removed : T.added);
      await invalidateDatasets(queryClient);
    },
  });
  const label = favorited ? T.removeLabel(dataset.name) : T.addLabel(dataset.name);
  const icon = favorited ? <StarFilled className="slg-ds-star-on" aria-hidden /> : <StarOutlined aria-hidden />;
  const button = (
    <Button
      type={withText ? 'default' : 'text'}
      size={size}
      icon={icon}
      aria-label={label}
      loading={toggle.isPending}
      onClick={() => toggle.mutate()}
    >
      {withText ? (favorited ? T.remove : T.add) : null}
    </Button>
  );
  return withText ? button : <Tooltip title={favorited ? T.remove : T.add}>{button}</Tooltip>;
}

import { dictItemOf, labelOf, type DictItem, type LooseDictValue, type TagColor } from '@slg/shared';
import { Tag } from 'antd';

type ColoredDict = readonly (DictItem<string> & { readonly color: TagColor })[];

/** A status from a coloured dictionary (e.g. ORDER_STATUSES) as a Tag with its Chinese label. */
export function StatusTag<D extends ColoredDict>({ dict, value }: { dict: D; value: LooseDictValue<D> | null | undefined }) {
  const item = dictItemOf(dict, value);
  return <Tag color={item?.color ?? 'default'}>{labelOf(dict, value)}</Tag>;
}

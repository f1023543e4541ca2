import { formatYuan, type PackageKey } from '@slg/shared';
import type { ClonePrepayResult } from '../../../api/compute';
import { OrderFigures, type FigureRow } from '../orderParts/OrderFigures';
import { CLONE_PAGE_TEXTS } from './texts';

const T = CLONE_PAGE_TEXTS.price;

interface CloneFiguresProps {
  quote: ClonePrepayResult;
  gpuNum: number;
  packageKey: PackageKey | null;
  rentAmount: number | undefined;
  copyData: boolean;
  /** Rows after the price (the balance on the order page). */
  extra?: FigureRow[];
}

/** The clone's price as `/rental/clone/prepay` answers it: the order's figures with the data disk it gets. */
export function CloneFigures({ quote, gpuNum, packageKey, rentAmount, copyData, extra }: CloneFiguresProps) {
  const disk: FigureRow[] = [
    { label: T.disk, value: copyData ? T.diskCopy(quote.dataDiskGb) : T.diskNew(quote.dataDiskGb) },
    ...(quote.diskRateFenPerDay > 0 ? [{ label: T.diskRate, value: T.perDay(formatYuan(quote.diskRateFenPerDay)) }] : []),
  ];
  return <OrderFigures quote={quote} gpuNum={gpuNum} packageKey={packageKey} rentAmount={rentAmount} detail={disk} {...(extra ? { extra } : {})} />;
}

import { formatYuan } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, type ButtonProps } from 'antd';
import { billingKeys } from '../../../api/billing';
import { saveDownload } from '../../../api/download';
import { cancelInvoice, downloadInvoicePdf, type InvoiceDto } from '../../../api/invoices';
import { toast } from '../../../api/toast';
import { ConfirmAction } from '../../../components/ConfirmDialog';
import { INVOICE_TEXTS } from './texts';

const T = INVOICE_TEXTS;

/** 取消申请 of an application under review, after a dialog that says what happens to the amount. */
export function CancelInvoiceButton({ invoice, size, type = 'link' }: { invoice: InvoiceDto; size?: ButtonProps['size']; type?: ButtonProps['type'] }) {
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => cancelInvoice(invoice.id),
    onSuccess: () => {
      toast.success(T.canceled);
      void queryClient.invalidateQueries({ queryKey: billingKeys.invoices });
    },
  });
  if (invoice.status !== 'PENDING') return null;
  return (
    <ConfirmAction
      danger
      texts={T.cancelConfirm}
      onConfirm={() => cancel.mutateAsync()}
      trigger={(open) => (
        <Button type={type} size={size} danger loading={cancel.isPending} onClick={open}>
          {T.cancel}
        </Button>
      )}
    >
      {T.cancelConfirm.content(formatYuan(invoice.amount))}
    </ConfirmAction>
  );
}

/** The PDF of an issued invoice. */
export function DownloadInvoiceButton({
  invoice,
  size,
  type = 'link',
  label = T.download,
}: {
  invoice: InvoiceDto;
  size?: ButtonProps['size'];
  type?: ButtonProps['type'];
  label?: string;
}) {
  const download = useMutation({
    mutationFn: () => downloadInvoicePdf(invoice.id),
    onSuccess: (file) => saveDownload(file, T.downloadName(invoice.invoiceNo)),
  });
  if (invoice.status !== 'SUCCESS' || !invoice.hasPdf) return null;
  return (
    <Button type={type} size={size} loading={download.isPending} onClick={() => download.mutate()}>
      {label}
    </Button>
  );
}

import { Checkbox, Modal, Typography } from 'antd';
import { AUTO_RELEASE_DAYS, BALANCE_COVER_HOURS, RELEASE_WARNING_DAYS } from '@slg/shared';
import { useState } from 'react';
import { CREATE_INSTANCE_TEXTS } from './texts';

const T = CREATE_INSTANCE_TEXTS.protocol;

/** The clauses of the rental agreement, from the platform's own rules so the two never disagree. */
const CLAUSES: readonly string[] = T.clauses({
  coverHours: BALANCE_COVER_HOURS,
  releaseDays: AUTO_RELEASE_DAYS,
  warningDays: [...RELEASE_WARNING_DAYS].sort((a, b) => b - a),
});

interface RentalProtocolProps {
  agreed: boolean;
  onAgreedChange: (agreed: boolean) => void;
}

/** 我已阅读并同意《算力租用协议》, the agreement in a dialog whose 同意 button ticks the box. */
export function RentalProtocol({ agreed, onAgreedChange }: RentalProtocolProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Checkbox className="slg-create-protocol" checked={agreed} onChange={(event) => onAgreedChange(event.target.checked)}>
        {T.agree}
        <Typography.Link
          onClick={(event) => {
            // The link opens the agreement; it does not tick the box it sits in.
            event.preventDefault();
            setOpen(true);
          }}
        >
          {T.name}
        </Typography.Link>
      </Checkbox>
      <Modal
        open={open}
        title={T.name}
        okText={T.accept}
        cancelText={T.close}
        onOk={() => {
          onAgreedChange(true);
          setOpen(false);
        }}
        onCancel={() => setOpen(false)}
      >
        <ol className="slg-create-protocol-clauses">
          {CLAUSES.map((clause) => (
            <li key={clause}>{clause}</li>
          ))}
        </ol>
      </Modal>
    </>
  );
}

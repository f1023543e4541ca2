import { CheckOutlined, CloseOutlined, EditOutlined } from '@ant-design/icons';
import { INSTANCE_NAME_MAX, INSTANCE_NAME_MESSAGE, INSTANCE_NAME_PATTERN } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { claimError, isApiError } from '../../../../api/client';
import { computeKeys, renameInstance, type InstanceView } from '../../../../api/compute';
import { toast } from '../../../../api/toast';
import { canDo } from '../instanceRules';
import { INSTANCE_LIST_TEXTS } from '../texts';

const T = INSTANCE_LIST_TEXTS;

/** The instance's name (renamed in place) and its id (copyable). */
export function InstanceName({ instance }: { instance: InstanceView }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rename = useMutation({
    mutationFn: (name: string) => renameInstance(instance.instanceId, name),
    onSuccess: () => {
      toast.success(T.rename.done);
      setDraft(null);
      void queryClient.invalidateQueries({ queryKey: computeKeys.instances });
    },
    onError: (failure) => {
      // A refusal of the name (taken, invalid) goes under the box; anything else keeps its toast.
      if (isApiError(failure) && (failure.status === 400 || failure.code === 40026)) {
        claimError(failure);
        setError(failure.message);
      }
    },
  });

  function save() {
    const name = (draft ?? '').trim();
    if (!INSTANCE_NAME_PATTERN.test(name)) {
      setError(INSTANCE_NAME_MESSAGE);
      return;
    }
    if (name === instance.name) {
      setDraft(null);
      return;
    }
    rename.mutate(name);
  }

  const idLine = (
    <Typography.Text type="secondary" className="slg-instance-id" copyable={{ text: instance.instanceId, tooltips: [T.copy, T.copied] }}>
      {instance.instanceId}
    </Typography.Text>
  );

  if (draft !== null) {
    return (
      <div className="slg-instance-name">
        <Space.Compact>
          <Input
            aria-label={T.rename.label}
            size="small"
            autoFocus
            value={draft}
            maxLength={INSTANCE_NAME_MAX}
            status={error ? 'error' : undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              setError(null);
            }}
            onPressEnter={save}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setDraft(null);
            }}
          />
          <Button size="small" type="primary" icon={<CheckOutlined />} aria-label={T.rename.save} loading={rename.isPending} onClick={save} />
          <Button size="small" icon={<CloseOutlined />} aria-label={T.rename.cancel} onClick={() => setDraft(null)} />
        </Space.Compact>
        {error ? (
          <Typography.Text type="danger" role="alert" className="slg-instance-note">
            {error}
          </Typography.Text>
        ) : null}
        {idLine}
      </div>
    );
  }

  return (
    <div className="slg-instance-name">
      <span className="slg-instance-name-line">
        <strong>{instance.name}</strong>
        {canDo(instance, 'rename') ? (
          <Button
            type="text"
            size="small"
            icon={<EditOutlined />}
            aria-label={T.rename.edit}
            title={T.rename.edit}
            onClick={() => {
              setError(null);
              setDraft(instance.name);
            }}
          />
        ) : null}
      </span>
      {idLine}
    </div>
  );
}

import { EditOutlined } from '@ant-design/icons';
import { NICKNAME_MAX_LENGTH, NICKNAME_MESSAGE } from '@slg/shared';
import { Button, Input, Space, Typography } from 'antd';
import { useId, useState, type FormEvent } from 'react';
import { toast } from '../../../api/toast';
import { updateNickname } from '../../../api/user';
import { applyServerError } from '../../../forms/serverErrors';
import { ACCOUNT_SETTINGS_TEXTS } from './texts';

const T = ACCOUNT_SETTINGS_TEXTS.nickname;

function nicknameError(value: string): string | null {
  const length = [...value.trim()].length;
  return length >= 1 && length <= NICKNAME_MAX_LENGTH ? null : NICKNAME_MESSAGE;
}

/** 昵称 with 修改 in place: an input with 保存 / 取消, the server's refusal under it. */
export function NicknameEditor({ nickName, onSaved }: { nickName: string; onSaved: () => Promise<unknown> }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(nickName);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const inputId = useId();

  if (!editing) {
    return (
      <Space size={4} wrap className="slg-nickname">
        <Typography.Text strong>{nickName}</Typography.Text>
        <Button
          type="link"
          size="small"
          icon={<EditOutlined />}
          aria-label={T.editLabel}
          onClick={() => {
            setValue(nickName);
            setError(null);
            setEditing(true);
          }}
        >
          {T.edit}
        </Button>
      </Space>
    );
  }

  async function save(event?: FormEvent) {
    event?.preventDefault();
    const invalid = nicknameError(value);
    if (invalid) {
      setError(invalid);
      return;
    }
    setSaving(true);
    try {
      await updateNickname(value.trim());
      await onSaved();
      toast.success(T.saved);
      setEditing(false);
    } catch (failure) {
      applyServerError({ setError: (_field: 'nickName', message: string) => setError(message) }, failure, { 40000: 'nickName' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form className="slg-nickname-form" noValidate onSubmit={(event) => void save(event)}>
      <div className="slg-nickname-row">
        <Input
          id={inputId}
          aria-label={T.editLabel}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${inputId}_help`}
          status={error ? 'error' : undefined}
          value={value}
          maxLength={NICKNAME_MAX_LENGTH}
          placeholder={T.placeholder}
          autoFocus
          onChange={(event) => {
            setValue(event.target.value);
            setError(nicknameError(event.target.value));
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setEditing(false);
          }}
        />
        <Button type="primary" htmlType="submit" loading={saving}>
          {T.save}
        </Button>
        <Button onClick={() => setEditing(false)} disabled={saving}>
          {T.cancel}
        </Button>
      </div>
      <div id={`${inputId}_help`} className="slg-nickname-help">
        {error ? (
          <Typography.Text type="danger" role="alert">
            {error}
          </Typography.Text>
        ) : null}
      </div>
    </form>
  );
}

import { DeleteOutlined, FileImageOutlined, FilePdfOutlined, UploadOutlined } from '@ant-design/icons';
import { PRIVATE_UPLOAD_ACCEPT, PRIVATE_UPLOAD_MAX_BYTES, PRIVATE_UPLOAD_MESSAGES, type PrivateUploadPurpose } from '@slg/shared';
import { Button, Form, Typography, Upload, type UploadProps } from 'antd';
import { useEffect, useState } from 'react';
import { claimError, isApiError } from '../../../../api/client';
import { uploadPrivateFile, type UploadedFile } from '../../../../api/verification';
import { AUTHENTICATION_TEXTS } from '../texts';

const T = AUTHENTICATION_TEXTS.upload;
const ALLOWED_EXTENSIONS = /\.(jpe?g|png|pdf)$/i;
const ALLOWED_TYPES = new Set(['image/jpeg', 'image/png', 'application/pdf']);

/** The reason a chosen file cannot go up, judged before sending (the server judges the bytes again). */
export function problemOfFile(file: { name: string; size: number; type: string }): string | null {
  if (file.size === 0) return PRIVATE_UPLOAD_MESSAGES.empty;
  if (file.size > PRIVATE_UPLOAD_MAX_BYTES) return PRIVATE_UPLOAD_MESSAGES.tooLarge;
  if (!ALLOWED_TYPES.has(file.type) && !ALLOWED_EXTENSIONS.test(file.name)) return PRIVATE_UPLOAD_MESSAGES.type;
  return null;
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(2)} MB`;
}

/** A local object URL of the chosen file for its preview; none where the browser (or jsdom) has no object URLs. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return undefined;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return url;
}

interface CredentialUploadProps {
  /** The form field holding the uploaded file (errors of the upload go on it). */
  name: string;
  purpose: PrivateUploadPurpose;
  /** What it is, for the button's accessible name, e.g. 营业执照. */
  label: string;
  value?: UploadedFile | undefined;
  onChange?: (value: UploadedFile | undefined) => void;
  /** Tells the form an upload is under way (submitting waits for it). */
  onBusyChange?: (busy: boolean) => void;
}

/**
 * One private file for a verification: chosen, checked (type, size) and uploaded at once to
 * /user/upload/private; then its name, size, a preview from the local copy, and 移除. Inside an antd
 * Form.Item, which gives `value` / `onChange`.
 */
export function CredentialUpload({ name, purpose, label, value, onChange, onBusyChange }: CredentialUploadProps) {
  const form = Form.useFormInstance();
  const [local, setLocal] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const previewUrl = useObjectUrl(value ? local : null);

  function setProblem(message: string | null) {
    form.setFields([{ name, errors: message ? [message] : [] }]);
  }

  function setUploading(next: boolean) {
    setBusy(next);
    onBusyChange?.(next);
  }

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const problem = problemOfFile(file);
    if (problem) {
      setProblem(problem);
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = (options) => {
    const file = options.file as File;
    setUploading(true);
    setProblem(null);
    uploadPrivateFile(file, purpose)
      .then((uploaded) => {
        setLocal(file);
        onChange?.(uploaded);
        setProblem(null);
        options.onSuccess?.(uploaded);
      })
      .catch((error: unknown) => {
        // The server's reason (too large, wrong type, daily limit) goes under the field, not in a toast.
        setProblem(isApiError(error) && claimError(error) ? error.message : T.failed);
        options.onError?.(error instanceof Error ? error : new Error(T.failed));
      })
      .finally(() => setUploading(false));
  };

  const remove = () => {
    setLocal(null);
    onChange?.(undefined);
  };

  const isPdf = value?.contentType === 'application/pdf';
  return (
    <div className="slg-credential">
      {value ? (
        <div className="slg-credential-file">
          {previewUrl && !isPdf ? (
            <a href={previewUrl} target="_blank" rel="noopener noreferrer" className="slg-credential-thumb" aria-label={`${T.preview}${value.fileName}`}>
              <img src={previewUrl} alt={value.fileName} />
            </a>
          ) : (
            <span className="slg-credential-icon" aria-hidden>
              {isPdf ? <FilePdfOutlined /> : <FileImageOutlined />}
            </span>
          )}
          <div className="slg-credential-name">
            <Typography.Text ellipsis={{ tooltip: value.fileName }}>{value.fileName}</Typography.Text>
            <Typography.Text type="secondary" className="slg-credential-size">
              {formatBytes(value.size)}
              {previewUrl ? (
                <a href={previewUrl} target="_blank" rel="noopener noreferrer" className="slg-credential-preview">
                  {T.preview}
                </a>
              ) : null}
            </Typography.Text>
          </div>
          <Button type="text" danger icon={<DeleteOutlined />} onClick={remove} aria-label={`${T.remove}${label}`} disabled={busy}>
            {T.remove}
          </Button>
        </div>
      ) : null}
      <Upload accept={PRIVATE_UPLOAD_ACCEPT} maxCount={1} showUploadList={false} beforeUpload={beforeUpload} customRequest={customRequest} disabled={busy}>
        <Button icon={<UploadOutlined />} loading={busy} aria-label={`${value ? T.replace : T.choose}${label}`}>
          {busy ? T.uploading : value ? T.replace : T.choose}
        </Button>
      </Upload>
    </div>
  );
}

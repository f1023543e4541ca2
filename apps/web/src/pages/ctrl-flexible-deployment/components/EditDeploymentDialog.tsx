import { useQueryClient } from '@tanstack/react-query';
import { Divider, Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { editElastic, invalidateAfterElasticChange, useElasticOverviewQuery, type ElasticDeploymentView } from '../../../api/elastic';
import { toast } from '../../../api/toast';
import { editBody, editValuesOf, type EditValues } from '../rules';
import { ELASTIC_TEXTS } from '../texts';
import { ReplicaFields } from './CountFields';
import { useElasticImages } from './ImageSelect';
import { CommandField, EnvFields, FilterFields, ImageField } from './TemplateFields';

const T = ELASTIC_TEXTS;

/** 编辑: counts, image, command, environment and filters; only what changed is sent. */
export function EditDeploymentDialog({ deployment, onClose }: { deployment: ElasticDeploymentView; onClose: () => void }) {
  const [form] = Form.useForm<EditValues>();
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const images = useElasticImages();
  const overview = useElasticOverviewQuery();

  async function submit() {
    let values: EditValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const body = editBody(deployment, values);
    if (Object.keys(body).length === 0) {
      toast.info(T.edit.unchanged);
      return;
    }
    setSaving(true);
    try {
      await editElastic(deployment.id, body);
      toast.success(T.edit.done);
      await invalidateAfterElasticChange(queryClient);
      onClose();
    } catch {
      // The client showed the refusal (locked, bad input); the dialog stays for another try.
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      title={T.edit.title(deployment.name)}
      okText={T.edit.submit}
      cancelText={T.edit.cancel}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      width={640}
    >
      <Typography.Paragraph type="secondary">{T.edit.intro}</Typography.Paragraph>
      <Form<EditValues> form={form} layout="vertical" requiredMark={false} initialValues={editValuesOf(deployment)} name={`elastic-edit-${deployment.id}`}>
        <ReplicaFields type={deployment.type} editing />
        <ImageField images={images} />
        <CommandField />
        <EnvFields />
        <Divider titlePlacement="start" plain>
          {T.fields.filters}
        </Divider>
        <FilterFields stock={overview.data?.stock} stockFailed={overview.isError && !overview.data} />
      </Form>
    </Modal>
  );
}

import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Button, Form } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TelephoneFormItem } from './TelephoneFormItem';

function Harness({ onFinish }: { onFinish: (values: { telephone: string }) => void }) {
  return (
    <Form onFinish={onFinish}>
      <TelephoneFormItem autoComplete="tel-national" />
      <Button htmlType="submit">确认提交</Button>
    </Form>
  );
}

const input = () => screen.getByLabelText('手机号') as HTMLInputElement;

describe('手机号 field', () => {
  afterEach(() => cleanup());

  it.each(['+86 138-0013-8001', '138 0013 8001', '0086 13800138001', '１３８００１３８００１', '+86 13800138001'])(
    'turns a pasted %j into the 11 digits and submits them',
    async (pasted) => {
      const onFinish = vi.fn();
      render(<Harness onFinish={onFinish} />);
      fireEvent.change(input(), { target: { value: pasted } });
      expect(input().value).toBe('13800138001');
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: '确认提交' }));
      });
      await waitFor(() => expect(onFinish).toHaveBeenCalledWith({ telephone: '13800138001' }));
    },
  );

  it('leaves a number being typed alone, and normalises what is left on blur', async () => {
    const onFinish = vi.fn();
    render(<Harness onFinish={onFinish} />);
    fireEvent.change(input(), { target: { value: '+86 138' } });
    expect(input().value).toBe('+86 138');
    fireEvent.change(input(), { target: { value: '138 0013 800' } });
    fireEvent.blur(input());
    expect(input().value).toBe('1380013800');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '确认提交' }));
    });
    expect(await screen.findByText('请输入正确的11位手机号')).toBeTruthy();
    expect(onFinish).not.toHaveBeenCalled();
  });
});

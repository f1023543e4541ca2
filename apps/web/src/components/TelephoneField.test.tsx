import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { telephoneRules } from '../forms/rules';
import { useForm } from '../forms/useForm';
import { TelephoneField } from './TelephoneField';

function Harness({ onFinish }: { onFinish: (values: { telephone: string }) => void }) {
  const form = useForm({ name: 'phone', initialValues: { telephone: '' }, rules: { telephone: telephoneRules } });
  return (
    <form noValidate onSubmit={form.handleSubmit(onFinish)}>
      <TelephoneField form={form} autoComplete="tel-national" />
      <button type="submit">确认提交</button>
    </form>
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

  it('says what is wrong under the field and names that message from the input', async () => {
    render(<Harness onFinish={vi.fn()} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '确认提交' }));
    });
    expect(input().getAttribute('aria-invalid')).toBe('true');
    const help = document.getElementById(input().getAttribute('aria-describedby') ?? '');
    expect(help?.textContent).toBe('请输入手机号');
    fireEvent.change(input(), { target: { value: '13800138001' } });
    expect(input().getAttribute('aria-invalid')).toBeNull();
    expect(help?.textContent).toBe('');
  });
});

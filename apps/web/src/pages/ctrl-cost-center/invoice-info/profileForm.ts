import type { InvoiceProfileDto, InvoiceTitleType } from '../../../api/invoices';

/** What the form edits: every field a string (blank = not given). */
export interface InvoiceProfileForm {
  titleType: InvoiceTitleType;
  title: string;
  taxNo: string;
  bankName: string;
  bankAccount: string;
  address: string;
  phone: string;
  email: string;
}

export const TAX_NO_PATTERN = /^[0-9A-Z]{15,20}$/;
export const BANK_ACCOUNT_PATTERN = /^[\d -]{4,40}$/;
export const PHONE_PATTERN = /^[\d ()+-]{5,32}$/;

export function toForm(profile: InvoiceProfileDto | null): InvoiceProfileForm {
  return {
    titleType: profile?.titleType ?? 'PERSONAL',
    title: profile?.title ?? '',
    taxNo: profile?.taxNo ?? '',
    bankName: profile?.bankName ?? '',
    bankAccount: profile?.bankAccount ?? '',
    address: profile?.address ?? '',
    phone: profile?.phone ?? '',
    email: profile?.email ?? '',
  };
}

const blankToNull = (value: string | undefined) => value?.trim() || null;

/** The PUT body: trimmed, blanks as null, the tax number upper-cased (and dropped for a personal title). */
export function toProfile(form: InvoiceProfileForm): InvoiceProfileDto {
  const enterprise = form.titleType === 'ENTERPRISE';
  return {
    titleType: form.titleType,
    title: form.title.trim(),
    taxNo: enterprise ? (blankToNull(form.taxNo)?.toUpperCase() ?? null) : null,
    bankName: blankToNull(form.bankName),
    bankAccount: blankToNull(form.bankAccount),
    address: blankToNull(form.address),
    phone: blankToNull(form.phone),
    email: form.email.trim(),
  };
}

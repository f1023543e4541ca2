import dayjs from 'dayjs';

export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const EMPTY = '-';

/** An ISO time as `YYYY-MM-DD HH:mm:ss` in local time; `-` when missing or invalid. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return EMPTY;
  const time = dayjs(value);
  return time.isValid() ? time.format(DATE_TIME_FORMAT) : EMPTY;
}

/** `<time>` with the formatted value and the machine-readable one. */
export function DateTime({ value }: { value: string | null | undefined }) {
  const text = formatDateTime(value);
  return value && text !== EMPTY ? (
    <time dateTime={value} style={{ whiteSpace: 'nowrap' }}>
      {text}
    </time>
  ) : (
    <span>{text}</span>
  );
}

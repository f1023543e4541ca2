import { UserOutlined } from '../ui/icons/UserOutlined';

/** The account's picture in the header: the person icon (there are no uploaded pictures). */
export function Avatar({ size }: { size: 'small' | 'large' }) {
  return (
    <span className={`slg-avatar slg-avatar-${size}`} aria-hidden="true">
      <UserOutlined />
    </span>
  );
}

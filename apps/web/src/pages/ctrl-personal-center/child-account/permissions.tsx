import {
  ALLOWED_LEVELS,
  AUTHORITY_TYPE_LABELS,
  grantedAuthorities,
  isOfferedAuthorityType,
  NO_PERMISSIONS,
  OFFERED_AUTHORITY_TYPES,
  PERMISSION_LEVEL_LABELS,
  type AuthorityType,
  type PermissionLevel,
  type PermissionMap,
} from '@slg/shared';
import { Radio, Tag, Typography } from 'antd';
import { CHILD_ACCOUNT_TEXTS, PERMISSION_LEVEL_HINTS } from './texts';

/** What a new sub-account starts with: its own resources wherever that level exists, nothing else. */
export const DEFAULT_PERMISSIONS: PermissionMap = {
  ...NO_PERMISSIONS,
  ...Object.fromEntries(OFFERED_AUTHORITY_TYPES.map((type) => [type, ALLOWED_LEVELS[type].includes('SELF') ? 'SELF' : 'NONE'])),
};

interface LevelPickerProps {
  authorityType: AuthorityType;
  value?: PermissionLevel;
  onChange?: (level: PermissionLevel) => void;
  disabled?: boolean;
}

/** The levels one authority type offers, as radio buttons (a Form.Item child: value / onChange). */
export function PermissionLevelPicker({ authorityType, value, onChange, disabled }: LevelPickerProps) {
  return (
    <Radio.Group
      optionType="button"
      buttonStyle="solid"
      size="small"
      disabled={disabled}
      value={value}
      aria-label={AUTHORITY_TYPE_LABELS[authorityType]}
      onChange={(event) => onChange?.(event.target.value as PermissionLevel)}
      options={ALLOWED_LEVELS[authorityType].map((level) => ({ value: level, label: PERMISSION_LEVEL_LABELS[level], title: PERMISSION_LEVEL_HINTS[level] }))}
    />
  );
}

/** The granted types that can be granted today as compact tags (全部数据 in colour); none at all says so. */
export function PermissionTags({ permissions }: { permissions: PermissionMap }) {
  const granted = grantedAuthorities(permissions).filter(isOfferedAuthorityType);
  if (granted.length === 0) return <Typography.Text type="secondary">{CHILD_ACCOUNT_TEXTS.noPermission}</Typography.Text>;
  return (
    <span className="slg-child-tags">
      {granted.map((type) => (
        <Tag key={type} color={permissions[type] === 'ALL' ? 'blue' : undefined} title={PERMISSION_LEVEL_HINTS[permissions[type]]}>
          {`${AUTHORITY_TYPE_LABELS[type]}·${PERMISSION_LEVEL_LABELS[permissions[type]]}`}
        </Tag>
      ))}
    </span>
  );
}

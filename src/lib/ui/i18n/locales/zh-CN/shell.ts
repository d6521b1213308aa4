import type { shell as en } from '../en/shell';
import type { Messages } from '../../types';

export const shell: Messages<typeof en> = {
  units: {
    memories_one: '{{count}} 条记忆',
    memories_other: '{{count}} 条记忆',
    historyEntries_one: '{{count}} 条历史记录',
    historyEntries_other: '{{count}} 条历史记录',
    profileLines_one: '{{count}} 行画像',
    profileLines_other: '{{count}} 行画像',
    profileVersions_one: '{{count}} 个画像版本',
    profileVersions_other: '{{count}} 个画像版本',
  },
};

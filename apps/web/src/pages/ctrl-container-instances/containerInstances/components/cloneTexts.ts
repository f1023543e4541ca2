/** The 更多 entry of 克隆实例 (the clone itself is on /ctrl-container-instances/cloneInstances). */
export const CLONE_TEXTS = {
  menu: '克隆实例',
} as const;

/** Messages of the API client (spec §8). Catalogue messages that the server shares live in `ErrorCodes`. */
export const API_TEXTS = {
  unknownError: '未知错误！',
  networkError: '网络连接失败，请检查网络后重试',
} as const;

export function scanLogsForSecrets(dir: string): {
  secrets: number;
  bytes: number;
  hits: Array<{ file: string; secret: string }>;
};
export function checkLogsForSecrets(dir: string): { secrets: number; bytes: number };

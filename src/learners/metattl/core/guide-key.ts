/**
 * Which attempts share a guide. 'task': the same wording on the same site
 * (case and spacing ignored). 'template': the same wording once numbers and
 * quoted values are masked, so "order #104" and "order #202" share one guide.
 */
export type GuideScope = 'task' | 'template';

export function normalizeTask(task: string): string {
  return task.toLowerCase().replace(/\s+/g, ' ').trim();
}

export function templateOf(task: string): string {
  return normalizeTask(task)
    .replace(/"[^"]*"|'[^']*'|“[^”]*”/g, '"…"')
    .replace(/\d+(?:[.,]\d+)*/g, '#');
}

export function guideKey(origin: string, task: string, scope: GuideScope): string {
  return `${origin} ${scope === 'template' ? templateOf(task) : normalizeTask(task)}`;
}

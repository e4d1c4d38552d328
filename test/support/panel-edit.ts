/**
 * The side panel's action-form field sits under a closed "Advanced: type the
 * action" disclosure (issue 31): open it as a person would, then use the field.
 */
import type { Locator, Page } from 'playwright-core';

export async function editField(panel: Page): Promise<Locator> {
  const details = panel.locator('details.edit-advanced');
  await details.waitFor({ state: 'attached', timeout: 30_000 });
  if ((await details.getAttribute('open')) === null) await details.locator(':scope > summary').click();
  return panel.getByLabel('Edit the action');
}

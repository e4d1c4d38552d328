/** Teachers for the account settings' tasks: a person opening the right section, changing it, saving it. */
import type { Page } from 'playwright-core';
import type { TeacherStep } from '../../../suite.ts';
import { firstRule, isChecked, optionLabels, role, roleContaining, seeing, selectedLabel, sees, valueIn, when } from './person.ts';

type Change =
  | { field: string; fill: string }
  | { field: string; choose: string }
  | { field: string; checked: boolean };

/** Opens `section`, makes each change in order (skipping what already holds), then presses `save`. */
export function settingsTeacher(section: string, save: string, changes: Change[]) {
  return firstRule(
    when(seeing(role('button', save)), async (page: Page): Promise<TeacherStep> => {
      for (const c of changes) {
        if ('fill' in c) {
          if ((await valueIn(page, role('textbox', c.field))) !== c.fill) return { do: 'fill', selector: role('textbox', c.field), text: c.fill };
        } else if ('choose' in c) {
          const select = role('combobox', c.field);
          // The option as the page words it ("(UTC+09:00) Tokyo" for Tokyo).
          const label = (await optionLabels(page, select)).find((o) => o.includes(c.choose));
          if (!label) return { do: 'stop' };
          if ((await selectedLabel(page, select)) !== label) return { do: 'select', selector: select, option: label };
        } else {
          const box = (await sees(page, roleContaining('radio', c.field))) ? roleContaining('radio', c.field) : roleContaining('checkbox', c.field);
          if ((await isChecked(page, box)) !== c.checked) return { do: c.checked ? 'check' : 'uncheck', selector: box };
        }
      }
      return { do: 'click', selector: role('button', save) };
    }),
    when(seeing(role('link', section)), { do: 'click', selector: role('link', section) }),
    when(seeing(role('link', 'Settings')), { do: 'click', selector: role('link', 'Settings') }),
  );
}

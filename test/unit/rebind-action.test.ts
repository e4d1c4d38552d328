import { describe, expect, it } from 'vitest';
import { rebindAction, rebindName } from '../../src/core/page/rebind-action.ts';
import { instanceValues } from '../../src/core/page/task-instances.ts';

const values = (from: string, to: string) => instanceValues(from, to)!;

describe('rebindAction: a name is rebound only where it is the value (issue 35 part 3)', () => {
  const kettleToTeapot = values('Get me the kettle, please.', 'Get me the teapot, please.');

  it('rebinds a whole name, a whole container name and a whole option, in any case', () => {
    expect(rebindAction('click(<button "Add to cart" in item "Kettle">)', kettleToTeapot)).toBe('click(<button "Add to cart" in item "teapot">)');
    expect(rebindAction('click(<link "kettle">)', kettleToTeapot)).toBe('click(<link "teapot">)');
    const type = values('File a bug of type feature request.', 'File a bug of type code defect.');
    expect(rebindAction('select_option(<combobox "Type">, "Feature_Request")', type)).toBe('select_option(<combobox "Type">, "code defect")');
  });

  it('never a word inside a longer name: "Electric kettle" stays (it is not "Electric teapot")', () => {
    expect(rebindAction('click(<button "Add to cart" in item "Electric kettle">)', kettleToTeapot)).toBe('click(<button "Add to cart" in item "Electric kettle">)');
    expect(rebindAction('click(<link "Kettle descaler">)', kettleToTeapot)).toBe('click(<link "Kettle descaler">)');
    expect(rebindAction('select_option(<combobox "Product">, "Kettle (large)")', kettleToTeapot)).toBe('select_option(<combobox "Product">, "Kettle (large)")');
  });

  it('a quoted phrase inside a label that is the whole value is the item the label names', () => {
    const notes = values('Label the note "Weekend plans" as "groceries".', 'Label the note "Garden ideas" as "tomatoes".');
    expect(rebindName('Edit “Weekend plans”', notes)).toBe('Edit “Garden ideas”');
    expect(rebindName('Move "Weekend plans" to the Trash', notes)).toBe('Move "Garden ideas" to the Trash');
    // Quoted, but longer than the value: not it.
    expect(rebindName('Edit “Weekend plans 2”', notes)).toBe('Edit “Weekend plans 2”');
  });

  it('typed text is the person\'s words: a value in it is rewritten as whole words', () => {
    const invite = values('Invite Mary Jackson to the Research team.', 'Invite Dorothy Vaughan to the Design team.');
    expect(rebindAction('fill(<textbox "Message">, "Welcome to Research, Mary Jackson!")', invite)).toBe('fill(<textbox "Message">, "Welcome to Design, Dorothy Vaughan!")');
    expect(rebindAction('send_msg_to_user("Mary Jackson is in Research")', invite)).toBe('send_msg_to_user("Dorothy Vaughan is in Design")');
  });

  it('leaves an action naming no value, and text that does not parse is rebound by whole words', () => {
    expect(rebindAction('click(<button "Save">)', kettleToTeapot)).toBe('click(<button "Save">)');
    expect(rebindAction('not an action kettle', kettleToTeapot)).toBe('not an action teapot');
  });
});

/**
 * The deterministic content of the Fossil repository of the real-apps suite:
 * a small project ("Lantern", a note-taking app) with wiki pages and tickets.
 * Task instances are drawn from these lists; nothing here is random.
 */

export const PROJECT_NAME = 'Lantern';

export interface SeedWikiPage { name: string; text: string }

export interface SeedTicket {
  title: string;
  type: 'Code_Defect' | 'Build_Problem' | 'Documentation' | 'Feature_Request' | 'Incident';
  status: 'Open' | 'Verified' | 'Review' | 'Deferred' | 'Fixed' | 'Tested' | 'Closed';
  severity: 'Critical' | 'Severe' | 'Important' | 'Minor' | 'Cosmetic';
  priority: 'Immediate' | 'High' | 'Medium' | 'Low' | 'Zero';
  comment: string;
}

export const WIKI_PAGES: readonly SeedWikiPage[] = [
  { name: PROJECT_NAME, text: '# Lantern\n\nLantern is a small note-taking app. See the wiki pages and the open tickets.' },
  { name: 'Build Instructions', text: 'Run `make` in the top directory.\n\nThe build needs a C compiler and zlib.' },
  { name: 'Release Process', text: 'Releases happen every six weeks.\n\nThe release manager tags the trunk and writes the news entry.' },
  { name: 'Coding Style', text: 'Indent with four spaces.\n\nKeep functions short and name them for what they do.' },
  { name: 'Roadmap', text: 'Next: encrypted notebooks.\n\nLater: a mobile companion app.' },
  { name: 'Contributors', text: 'Thanks to everyone who sent patches.\n\nNew contributors should read the Coding Style page first.' },
  { name: 'Keyboard Shortcuts', text: 'Ctrl+N opens a new note.\n\nCtrl+K jumps to a notebook by name.' },
  { name: 'Sync Protocol', text: 'Notes sync over HTTPS with a delta format.\n\nConflicts are resolved with a three-way merge and a tombstone list.' },
];

export const TICKETS: readonly SeedTicket[] = [
  { title: 'Crash when saving an empty note', type: 'Code_Defect', status: 'Open', severity: 'Critical', priority: 'High', comment: 'Saving a note with no text crashes the app.' },
  { title: 'Search ignores accented letters', type: 'Code_Defect', status: 'Open', severity: 'Important', priority: 'Medium', comment: 'Searching for cafe does not find café.' },
  { title: 'Dark theme for the editor', type: 'Feature_Request', status: 'Open', severity: 'Minor', priority: 'Low', comment: 'Please add a dark theme.' },
  { title: 'Build fails with newer zlib', type: 'Build_Problem', status: 'Verified', severity: 'Severe', priority: 'High', comment: 'The configure script rejects zlib 1.3.' },
  { title: 'Typo in the install guide', type: 'Documentation', status: 'Open', severity: 'Cosmetic', priority: 'Low', comment: 'The guide says "intsall".' },
  { title: 'Sync stalls on large notebooks', type: 'Code_Defect', status: 'Review', severity: 'Severe', priority: 'High', comment: 'Sync never finishes with more than 5000 notes.' },
  { title: 'Export notes to PDF', type: 'Feature_Request', status: 'Deferred', severity: 'Minor', priority: 'Medium', comment: 'A PDF export would help printing.' },
  { title: 'Toolbar icons are blurry', type: 'Code_Defect', status: 'Open', severity: 'Cosmetic', priority: 'Low', comment: 'Icons look blurry on high-DPI screens.' },
  { title: 'Shortcut list is out of date', type: 'Documentation', status: 'Open', severity: 'Minor', priority: 'Medium', comment: 'Ctrl+K is missing from the list.' },
  { title: 'Server outage on release day', type: 'Incident', status: 'Closed', severity: 'Critical', priority: 'Immediate', comment: 'The download server went down for an hour.' },
];

/** A fingerprint of the seed: the prepared repository is reused only while it matches. */
export function seedFingerprint(fossilVersion: string): string {
  return JSON.stringify({ v: 1, fossilVersion, PROJECT_NAME, WIKI_PAGES, TICKETS });
}

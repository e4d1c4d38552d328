/**
 * The real-shapes site's pages, rendered on the server as the web renders
 * them: a members table with a Remove on every row (each row's id in a hidden
 * input, every form posting to one path) and a confirmation dialog; a card
 * grid of identical "Add to cart"; an inbox whose star on every row is an
 * icon without text; an invite form of three unlabelled fields; settings tabs
 * that wrap links, in both common markups; and a sign-up in two steps on one
 * URL; a ticket report whose rows open by their id link, and nothing else in a row links; and a
 * note editor on one URL whose tag box is emptied by its Add button (the tag becomes a chip), as in
 * the tag boxes of blog and wiki editors: the only trace of "after Add" is a new chip on the page.
 */
import { MEMBERS, PRODUCTS, TEAMS, TICKET_STATUSES, type Note, type ShapesState, type Ticket } from './shapes-state.ts';

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} — Crew</title>
<style>body{font:15px sans-serif;margin:0}nav a{margin-right:12px}main{padding:16px}.card{display:inline-block;border:1px solid #ccc;padding:8px;margin:6px;width:150px}
.msg{list-style:none;padding:6px;border-bottom:1px solid #eee}.icon-star{display:inline-block;width:16px;height:16px;cursor:pointer;background:#fc0;border-radius:8px}
.icon-star.on{background:#f60}[role=tab]{display:inline-block;padding:6px 10px}.field{margin:6px 0}.step[hidden]{display:none}
[role=dialog]{border:2px solid #333;padding:12px;max-width:360px}</style></head>
<body><header><nav aria-label="Main"><a href="/members">Members</a><a href="/invite">Invite</a><a href="/shop">Shop</a><a href="/inbox">Inbox</a><a href="/settings">Settings</a><a href="/signup">Sign up</a></nav></header>
<main>${body}</main></body></html>`;
}

export function membersPage(state: ShapesState, notice: string): string {
  const rows = state.members
    .map((m) => `<tr><td>${esc(m.name)}</td><td>${esc(m.email)}</td><td>${esc(m.role)}</td><td>
<form method="post" action="/members/remove"><input type="hidden" name="id" value="${m.id}"><button>Remove</button></form></td></tr>`)
    .join('');
  return layout('Members', `<h1>Members</h1>${notice ? `<p role="status">${esc(notice)}</p>` : ''}
<table><thead><tr><th>Name</th><th>Email</th><th>Role</th><th>Actions</th></tr></thead><tbody>${rows}</tbody></table>`);
}

export function confirmRemovePage(id: number): string {
  const m = MEMBERS.find((x) => x.id === id);
  return layout('Remove member', `<div role="dialog" aria-labelledby="t"><h2 id="t">Remove member?</h2>
<p>${esc(m?.name ?? 'This member')} will lose access to the workspace.</p>
<form method="post" action="/members/remove/confirm"><input type="hidden" name="id" value="${id}"><button>Remove</button></form>
<p><a href="/members">Cancel</a></p></div>`);
}

export function shopPage(state: ShapesState): string {
  const cards = PRODUCTS.map((p) => `<div class="card"><h3>${esc(p.title)}</h3><p>${esc(p.price)}</p>
<form method="post" action="/cart/add"><input type="hidden" name="sku" value="${p.sku}"><button>Add to cart</button></form></div>`).join('');
  return layout('Shop', `<h1>Shop</h1><p>Cart: ${state.cart.length} item(s)</p><div class="grid">${cards}</div>`);
}

export function inboxPage(state: ShapesState): string {
  const items = state.messages.map((m) => `<li class="msg"><span class="icon-star${m.starred ? ' on' : ''}" data-id="${m.id}"></span>
<strong>${esc(m.from)}</strong> — <span>${esc(m.subject)}</span></li>`).join('');
  return layout('Inbox', `<h1>Inbox</h1><ul>${items}</ul>
<script>for (const s of document.querySelectorAll('.icon-star')) s.addEventListener('click', async () => {
  await fetch('/inbox/star', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'id=' + s.dataset.id });
  s.classList.toggle('on');
});</script>`);
}

export function invitePage(sentTo: string): string {
  const options = TEAMS.map((t) => `<option>${t}</option>`).join('');
  return layout('Invite', `<h1>Invite someone</h1>${sentTo ? `<p role="status">Invitation sent to ${esc(sentTo)}.</p>` : ''}
<form method="post" action="/invite">
<div class="field"><div>Full name</div><input name="n"></div>
<div class="field"><div>Email address</div><input name="e"></div>
<div class="field"><div>Team</div><select name="t">${options}</select></div>
<button>Send invite</button></form>`);
}

export function settingsPage(state: ShapesState, tab: string, saved: boolean): string {
  // Two common tab markups: a list item with the tab role around a link, and a link with the tab role.
  const tabs = `<ul role="tablist" style="list-style:none;padding:0">
<li role="tab" aria-selected="${tab === 'profile'}"><a href="/settings?tab=profile">Profile</a></li>
<li role="tab" aria-selected="${tab === 'notifications'}"><a href="/settings?tab=notifications">Notifications</a></li>
<a role="tab" aria-selected="${tab === 'privacy'}" href="/settings?tab=privacy">Privacy</a></ul>`;
  const s = state.settings;
  const panel = tab === 'notifications'
    ? `<form method="post" action="/settings/notifications" role="tabpanel" aria-label="Notifications">
<div class="field"><label><input type="checkbox" name="digest" ${s.weeklyDigest ? 'checked' : ''}> Weekly digest</label></div>
<div class="field"><label><input type="checkbox" name="comments" ${s.commentEmails ? 'checked' : ''}> Comment emails</label></div>
<button>Save</button></form>`
    : `<div role="tabpanel" aria-label="${tab === 'privacy' ? 'Privacy' : 'Profile'}"><p>Nothing to change here.</p></div>`;
  return layout('Settings', `<h1>Settings</h1>${saved ? '<p role="status">Saved.</p>' : ''}${tabs}${panel}`);
}

export function signupPage(done: string): string {
  return layout('Sign up', `<h1>Create a workspace</h1>${done ? `<p role="status">Workspace for ${esc(done)} created.</p>` : ''}
<form method="post" action="/signup" id="f">
<fieldset class="step" id="s1"><legend>Plan</legend>
<label><input type="radio" name="plan" value="Free" checked> Free</label>
<label><input type="radio" name="plan" value="Pro"> Pro</label>
<label><input type="radio" name="plan" value="Team"> Team</label>
<button type="button" id="next">Next</button></fieldset>
<fieldset class="step" id="s2" hidden><legend>Company</legend>
<label>Company name <input name="company"></label>
<button>Create workspace</button></fieldset></form>
<script>document.getElementById('next').addEventListener('click', () => {
  document.getElementById('s2').hidden = false;
});</script>`);
}

/** A tracker's report: the id opens the ticket, as in Fossil or Trac; the title is plain text. */
export function ticketsPage(state: ShapesState): string {
  const rows = state.tickets.map((t) => `<tr><td><a href="/tickets/${t.id}">${t.id}</a></td><td>${esc(t.type)}</td><td>${esc(t.status)}</td><td>${esc(t.title)}</td></tr>`).join('');
  return layout('Tickets', `<h1>All tickets</h1>
<table><thead><tr><th>#</th><th>Type</th><th>Status</th><th>Title</th></tr></thead><tbody>${rows}</tbody></table>`);
}

export function ticketPage(t: Ticket, saved: boolean): string {
  const options = TICKET_STATUSES.map((s) => `<option${s === t.status ? ' selected' : ''}>${s}</option>`).join('');
  return layout(t.title, `<h1>${esc(t.title)}</h1><p>Ticket ${t.id} · ${esc(t.type)}</p>${saved ? '<p role="status">Saved.</p>' : ''}
<form method="post" action="/tickets/${t.id}/edit"><label>Status <select name="status">${options}</select></label> <button>Save</button></form>
<p><a href="/tickets">Back to all tickets</a></p>`);
}

/** The notes: an Edit link on every row. */
export function notesPage(state: ShapesState): string {
  const rows = state.notes.map((n) => `<tr><td>${esc(n.title)}</td><td>${n.tags.map(esc).join(', ')}</td><td><a href="/notes/${n.id}/edit">Edit</a></td></tr>`).join('');
  return layout('Notes', `<h1>Notes</h1><table><thead><tr><th>Title</th><th>Tags</th><th></th></tr></thead><tbody>${rows}</tbody></table>`);
}

/** One URL: type a tag, Add turns it into a chip and empties the box (Enter too); Update saves the chips. */
export function noteEditPage(n: Note, saved: boolean): string {
  const chip = (t: string) => `<li>${esc(t)} <button type="button" class="rm" aria-label="Remove tag ${esc(t)}">×</button><input type="hidden" name="tag" value="${esc(t)}"></li>`;
  return layout(`Edit ${n.title}`, `<h1>${esc(n.title)}</h1>${saved ? '<p role="status">Note updated.</p>' : ''}
<form method="post" action="/notes/${n.id}/edit" id="f">
<div class="field"><div>Tags</div><ul id="chips">${n.tags.map(chip).join('')}</ul>
<input id="tag" placeholder="Add a tag" autocomplete="off"> <button type="button" id="add">Add</button></div>
<button>Update</button></form><p><a href="/notes">All notes</a></p>
<script>
const box = document.getElementById('tag');
const chips = document.getElementById('chips');
function wire(li) { li.querySelector('.rm').addEventListener('click', () => li.remove()); }
chips.querySelectorAll('li').forEach(wire);
function add() {
  const t = box.value.trim();
  if (!t) return;
  const li = document.createElement('li');
  li.append(t + ' ');
  const rm = document.createElement('button'); rm.type = 'button'; rm.className = 'rm'; rm.textContent = '\u00d7'; rm.setAttribute('aria-label', 'Remove tag ' + t);
  const h = document.createElement('input'); h.type = 'hidden'; h.name = 'tag'; h.value = t;
  li.append(rm, h); chips.append(li); wire(li);
  box.value = '';
}
document.getElementById('add').addEventListener('click', add);
box.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); add(); } });
</script>`);
}

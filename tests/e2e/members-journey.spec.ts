import { BASE_URL } from './base-url.ts';
import { createAccount, expect, mailedLink, test } from './fixtures.ts';

test('invite a second user, who accepts; change their role, remove them; the activity page lists every step', async ({
  page,
  browser,
  account,
}) => {
  // The invitee has an account of their own, in another browser.
  const invitee = await browser.newContext({ baseURL: BASE_URL });
  const inviteePage = await invitee.newPage();
  const other = await createAccount(inviteePage.request, 'invitee');

  // The owner invites them as analyst.
  await page.goto(`/console/management/member/${account.spaceId}`);
  const inviteForm = page.getByRole('region', { name: 'Invite a member' });
  await inviteForm.getByLabel('Email').fill(other.email);
  await inviteForm.getByLabel('Role').selectOption('analyst');
  await inviteForm.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('region', { name: 'Pending invitations table' })).toContainText(other.email);

  // The invitation link from the mail: accepting lands in the space's console.
  const link = await mailedLink(page.request, other.email, '/spaces?invitation=');
  await inviteePage.goto(link);
  await inviteePage.getByRole('button', { name: 'Accept and open the space' }).click();
  await expect(inviteePage).toHaveURL(`/console/${account.spaceId}`);

  // The owner sees the new member, makes them admin, then removes them.
  await page.reload();
  const members = page.getByRole('region', { name: 'Members table' });
  await expect(members).toContainText(other.name);
  const role = members.getByRole('combobox', { name: `Role of ${other.name}` });
  await role.selectOption('admin');
  await members.getByRole('button', { name: `Save the role of ${other.name}` }).click();
  await expect(members.getByRole('button', { name: `Save the role of ${other.name}` })).toHaveCount(0);
  await expect(role).toHaveValue('admin');
  await members.getByRole('button', { name: `Remove ${other.name}` }).click();
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(members).not.toContainText(other.name);

  // The removed member no longer sees the space: it answers as if it did not exist.
  await inviteePage.goto(`/console/management/member/${account.spaceId}`);
  await expect(inviteePage.getByText('This space does not exist or you are not a member.')).toBeVisible();
  await invitee.close();

  // The audit log lists every step, each with its change as JSON.
  await page.goto(`/console/management/activity/${account.spaceId}`);
  for (const action of ['invitation.create', 'member.join', 'member.role_change', 'member.remove']) {
    await expect(page.getByRole('cell', { name: action, exact: true }).first()).toBeVisible();
  }
  await page.getByRole('button', { name: 'Show the change of member.role_change' }).first().click();
  await expect(page.getByRole('tree').first()).toBeVisible();
});

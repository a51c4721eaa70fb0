import { useEffect, useState } from 'react';
import { passwordProblem } from '../../../contract/passwords.ts';
import { errorMessage } from '../../lib/api.ts';
import { confirmEmail, reloadMe, updateMe } from '../../stores/profile.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Form } from '../shared/Form.tsx';
import { PasswordFields } from '../shared/PasswordFields.tsx';
import { Problem } from '../shared/Problem.tsx';
import { useSignedIn } from '../shared/use-signed-in.ts';
import { FormProblem, text, useSubmit } from '../shared/use-submit.ts';
import { replaceUrl } from '../shared/use-url-view.ts';
import { ApiTokens } from './ApiTokens.tsx';
import { ColorModeSetting } from './ColorModeSetting.tsx';
import { Sessions } from './Sessions.tsx';

/** Name, email, password, colour mode, active sessions and personal API tokens of the signed-in user. */
function ProfileScreen() {
  const { me, loaded, retry } = useSignedIn();
  const [notice, setNotice] = useState<string | null>(null);

  // A confirmation link from mail: /profile?confirm-email=TOKEN.
  useEffect(() => {
    const token = new URLSearchParams(location.search).get('confirm-email');
    if (!token) return;
    confirmEmail(token).then(
      async () => {
        // The link's token is used: the address bar drops it.
        replaceUrl((url) => {
          url.search = '';
          url.hash = '';
        });
        setNotice('Your new email address is confirmed.');
        await reloadMe();
      },
      (failure: unknown) => setNotice(errorMessage(failure)),
    );
  }, []);

  const saveName = useSubmit(
    async (form) => {
      await updateMe({ name: text(form, 'name') });
      setNotice('Your name is saved.');
    },
    { fields: ['name'] },
  );
  const changeEmail = useSubmit(
    async (form) => {
      const updated = await updateMe({ email: text(form, 'email'), currentPassword: text(form, 'currentPassword') });
      setNotice(`We sent a confirmation link to ${updated.pendingEmail ?? text(form, 'email')}.`);
    },
    { fields: ['email', 'currentPassword'] },
  );
  const changePassword = useSubmit(
    async (form) => {
      const password = text(form, 'password');
      const problem = passwordProblem(password);
      if (problem) throw new FormProblem({ password: problem });
      if (password !== text(form, 'confirm')) throw new FormProblem({ confirm: 'The two passwords are not the same.' });
      await updateMe({ newPassword: password, currentPassword: text(form, 'currentPassword') });
      setNotice('Your password is changed.');
    },
    // The API names the new password `newPassword`; it shows under the password field.
    { fields: ['currentPassword', 'newPassword', 'password', 'confirm'] },
  );

  if (loaded.state === 'error') return <Problem error={loaded.error} onRetry={retry} />;
  if (!me) return <p role="status">Loading your profile…</p>;
  return (
    <div className="stack">
      {notice && <Alert tone="info">{notice}</Alert>}
      <section className="card panel" aria-labelledby="name-title">
        <h2 id="name-title">Name</h2>
        <Form onSubmit={saveName.onSubmit} pending={saveName.pending}>
          {saveName.error && <Alert tone="error">{saveName.error}</Alert>}
          <Field
            label="Name"
            name="name"
            defaultValue={me.name}
            required
            maxLength={100}
            error={saveName.fields.name}
          />
          <button className="button" type="submit" disabled={saveName.pending}>
            Save name
          </button>
        </Form>
      </section>
      <section className="card panel" aria-labelledby="email-title">
        <h2 id="email-title">Email</h2>
        <p>
          Signed in as <strong className="wrap-anywhere">{me.email}</strong>
          {me.pendingEmail && (
            <>
              {' '}
              — waiting for confirmation of <span className="wrap-anywhere">{me.pendingEmail}</span>
            </>
          )}
          .
        </p>
        <Form onSubmit={changeEmail.onSubmit} pending={changeEmail.pending}>
          {changeEmail.error && <Alert tone="error">{changeEmail.error}</Alert>}
          <Field
            label="New email"
            name="email"
            type="email"
            autoComplete="email"
            required
            error={changeEmail.fields.email}
          />
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            error={changeEmail.fields.currentPassword}
          />
          <button className="button" type="submit" disabled={changeEmail.pending}>
            Change email
          </button>
        </Form>
      </section>
      <section className="card panel" aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        <Form onSubmit={changePassword.onSubmit} pending={changePassword.pending}>
          {changePassword.error && <Alert tone="error">{changePassword.error}</Alert>}
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            error={changePassword.fields.currentPassword}
          />
          <PasswordFields
            errors={{
              ...changePassword.fields,
              password: changePassword.fields.newPassword ?? changePassword.fields.password ?? '',
            }}
            confirm
          />
          <button className="button" type="submit" disabled={changePassword.pending}>
            Change password
          </button>
        </Form>
      </section>
      <ColorModeSetting />
      <Sessions />
      <ApiTokens />
    </div>
  );
}

export default withApp(ProfileScreen);

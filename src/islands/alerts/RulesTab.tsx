import { lazy, Suspense, useRef, useState } from 'react';
import type { AlertRule } from '../../../contract/alert-rules.ts';
import { Alert } from '../shared/Alert.tsx';
import { Drawer } from '../shared/Drawer.tsx';
import { RulesTable } from './RulesTable.tsx';
import { draftOfRule, EMPTY_DRAFT, type RuleDraft } from './rule-draft.ts';

// Loaded when first opened: a page that never opens it never downloads it.
const AlertRuleEditor = lazy(() =>
  import('./AlertRuleEditor.tsx').then((module) => ({ default: module.AlertRuleEditor })),
);

interface Props {
  readonly spaceId: string;
  readonly rules: readonly AlertRule[];
  readonly canEdit: boolean;
  readonly canWork: boolean;
  /** A new rule's form to open at once (a prefill link, or "Create an alert rule" from the empty list). */
  readonly startNew: RuleDraft | null;
  /** Called when the editor that `startNew` opened closes (the page drops the prefill from its URL). */
  readonly onStartNewClosed: () => void;
}

interface Editing {
  readonly rule: AlertRule | null;
  readonly initial: RuleDraft;
}

/** The Rules tab: the rules, a New rule button for admins, and the editor in a drawer. */
export function RulesTab({ spaceId, rules, canEdit, canWork, startNew, onStartNewClosed }: Props) {
  const [editing, setEditing] = useState<Editing | null>(
    startNew && canEdit ? { rule: null, initial: startNew } : null,
  );
  const [message, setMessage] = useState<string | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const close = (): void => {
    // A drawer the page opened by itself gives the focus to New rule.
    opener.current ??= newButton.current;
    setEditing(null);
    onStartNewClosed();
  };
  return (
    <div className="sg-al-rules-tab">
      <div className="row sg-sources-head">
        <p className="muted">
          A rule watches the events: every match, more than a number of matches in a window, or a source that goes
          quiet. Each group of a rule has at most one open alert, which counts its events.
        </p>
        {canEdit && (
          <button
            ref={newButton}
            type="button"
            className="button"
            onClick={() => {
              opener.current = newButton.current;
              setMessage(null);
              setEditing({ rule: null, initial: EMPTY_DRAFT });
            }}
          >
            New rule
          </button>
        )}
      </div>
      {message && <Alert tone="success">{message}</Alert>}
      {rules.length === 0 ? (
        <p className="sg-empty">
          No alert rules yet.{' '}
          {canEdit
            ? 'Create one with New rule: for example more than 5 events tag:attack-sqli in 5 minutes, grouped by ip.'
            : 'An admin or owner of this space can create one.'}
        </p>
      ) : (
        <RulesTable
          spaceId={spaceId}
          rules={rules}
          now={Date.now()}
          canEdit={canEdit}
          onOpen={(rule, button) => {
            opener.current = button;
            setMessage(null);
            setEditing({ rule, initial: draftOfRule(rule) });
          }}
        />
      )}
      {!canEdit && <p className="muted">Only admins and owners of this space can create, change or delete rules.</p>}
      <Drawer
        open={editing !== null}
        onClose={close}
        label={editing?.rule ? `Alert rule ${editing.rule.name}` : 'New alert rule'}
        returnFocus={opener}
        variant="panel"
      >
        <Suspense fallback={<p role="status">Loading the rule editor…</p>}>
          {editing && (
            <AlertRuleEditor
              key={editing.rule?.id ?? 'new'}
              spaceId={spaceId}
              rule={editing.rule}
              initial={editing.initial}
              canEdit={canEdit}
              canWork={canWork}
              onSaved={(rule, created) => {
                setMessage(created ? `Rule “${rule.name}” created.` : `Rule “${rule.name}” saved.`);
                close();
              }}
              onDeleted={(name) => {
                setMessage(`Rule “${name}” deleted.`);
                close();
              }}
            />
          )}
        </Suspense>
      </Drawer>
    </div>
  );
}

/** Markdown island: GitHub flavour (tables, task lists, strikethrough, autolinks), no emoji shortcodes, no raw HTML. */
import type { AnchorHTMLAttributes, InputHTMLAttributes } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import './Markdown.css';

/** Props of the Markdown renderer. */
export interface MarkdownProps {
  /** The Markdown source, e.g. an alert note. A prop, not children: Astro hands islands their children as HTML. */
  readonly source: string;
  /** Extra class on the wrapper. */
  readonly className?: string | undefined;
}

const plugins = [remarkGfm];

// Every link opens in a new tab without handing the opener to the target.
function SafeLink({ node: _node, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { node?: unknown }) {
  return <a {...props} target="_blank" rel="noopener noreferrer" />;
}

// GitHub task-list boxes are read-only; they get a name so screen readers say what the state means.
function TaskCheckbox({ node: _node, ...props }: InputHTMLAttributes<HTMLInputElement> & { node?: unknown }) {
  if (props.type !== 'checkbox') return <input {...props} />;
  return <input {...props} aria-label={props.checked ? 'Done' : 'Not done'} />;
}

const components: Components = { a: SafeLink, input: TaskCheckbox };

/** Renders untrusted Markdown safely: raw HTML is dropped, unsafe URLs are removed by react-markdown's default. */
export function Markdown({ source, className }: MarkdownProps) {
  return (
    <div className={['sg-markdown', className].filter(Boolean).join(' ')}>
      <ReactMarkdown remarkPlugins={plugins} components={components} skipHtml>
        {source}
      </ReactMarkdown>
    </div>
  );
}

export default Markdown;

import { render, screen, within } from '@testing-library/react';
import { Markdown } from './Markdown.tsx';

describe('Markdown', () => {
  test('renders a GitHub table with its header and cells', () => {
    render(<Markdown source={'| Rule | Hits |\n| --- | ---: |\n| 942100 | 12 |\n| 941100 | 3 |'} />);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Rule', 'Hits']);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('cell', { name: '942100' })).toBeInTheDocument();
  });

  test('renders a task list as disabled checkboxes, checked where done', () => {
    render(<Markdown source={'- [x] block the scanner\n- [ ] tune rule 942100'} />);
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes).toHaveLength(2);
    expect(boxes[0]).toBeChecked();
    expect(boxes[1]).not.toBeChecked();
    expect(boxes[0]).toBeDisabled();
    expect(boxes.map((box) => box.getAttribute('aria-label'))).toEqual(['Done', 'Not done']);
  });

  test.each([
    { source: '~~false positive~~', selector: 'del', expected: 'false positive' },
    { source: 'see https://example.com/waf', selector: 'a', expected: 'https://example.com/waf' },
    { source: '`SecRuleEngine On`', selector: 'code', expected: 'SecRuleEngine On' },
  ])('GitHub flavour: $source renders a $selector', ({ source, selector, expected }) => {
    const { container } = render(<Markdown source={source} />);
    expect(container.querySelector(selector)).toHaveTextContent(expected);
  });

  test('leaves emoji shortcodes as text', () => {
    render(<Markdown source={'All clear :smile: :+1:'} />);
    expect(screen.getByText('All clear :smile: :+1:')).toBeInTheDocument();
  });

  test.each([
    { source: '<script>alert(1)</script>', tag: 'script' },
    { source: 'hello <img src=x onerror="alert(1)"> world', tag: 'img' },
    { source: '<iframe src="https://example.com"></iframe>', tag: 'iframe' },
  ])('never renders raw HTML: no <$tag> element', ({ source, tag }) => {
    const { container } = render(<Markdown source={source} />);
    expect(container.querySelector(tag)).toBeNull();
    expect(container.innerHTML).not.toContain(`<${tag}`);
  });

  test('a fenced script stays visible as escaped code', () => {
    const { container } = render(<Markdown source={'```html\n<script>alert(1)</script>\n```'} />);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('pre code')).toHaveTextContent('<script>alert(1)</script>');
  });

  test('links open in a new tab without the opener', () => {
    render(<Markdown source={'[runbook](https://example.com/runbook) and https://example.com/auto'} />);
    for (const link of screen.getAllByRole('link')) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    expect(screen.getAllByRole('link')).toHaveLength(2);
  });

  test('javascript: links lose their address', () => {
    render(<Markdown source={'[click](javascript:alert(1))'} />);
    expect(screen.getByText('click').getAttribute('href') ?? '').not.toContain('javascript');
  });
});

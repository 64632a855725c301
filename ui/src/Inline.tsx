/** Recipe text as the Markdown it is written in, inline code only: a
 *  `span` between backticks is shown as code, everything else as text
 *  (never as HTML). An unmatched backtick stays a backtick. */
export function Inline({ text }: { text: string }) {
  const parts = text.split('`');
  if (parts.length < 3) return <>{text}</>;
  // Even pieces are text, odd ones code; a last odd piece without its
  // closing backtick is text again.
  const closed = parts.length % 2 === 1;
  return (
    <>
      {parts.map((part, i) => {
        if (i % 2 === 0) return part;
        if (!closed && i === parts.length - 1) return `\`${part}`;
        return <code>{part}</code>;
      })}
    </>
  );
}

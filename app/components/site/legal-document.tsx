import { Fragment } from "react";
import { Link } from "react-router";
import { legalCopy, type LegalBlock, type LegalDocument, type LegalText } from "~/content/legal";

const linkClass = "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-300 dark:hover:text-brand-200";

function Inline({ text }: { text: LegalText }) {
  if (typeof text === "string") return <>{text}</>;
  return (
    <>
      {text.map((part, i) =>
        typeof part === "string" ? (
          <Fragment key={i}>{part}</Fragment>
        ) : part.href.startsWith("/") ? (
          <Link key={i} to={part.href} className={linkClass}>
            {part.text}
          </Link>
        ) : (
          <a key={i} href={part.href} className={linkClass}>
            {part.text}
          </a>
        ),
      )}
    </>
  );
}

function Block({ block }: { block: LegalBlock }) {
  switch (block.type) {
    case "p":
      return (
        <p className="mt-4 leading-7 text-slate-700 dark:text-slate-300">
          <Inline text={block.text} />
        </p>
      );
    case "ul":
      return (
        <ul className="mt-4 list-disc space-y-2 pl-6 leading-7 text-slate-700 marker:text-brand-600 dark:text-slate-300 dark:marker:text-brand-300">
          {block.items.map((item, i) => (
            <li key={i}>
              <Inline text={item} />
            </li>
          ))}
        </ul>
      );
    case "table":
      return (
        <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">{block.caption}</caption>
            <thead className="bg-slate-50 dark:bg-slate-900">
              <tr>
                {block.head.map((cell) => (
                  <th key={cell} scope="col" className="px-4 py-3 font-semibold">
                    {cell}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row) => (
                <tr key={row[0]} className="border-t border-slate-200 align-top dark:border-slate-800">
                  {row.map((cell, i) =>
                    i === 0 ? (
                      <th key={i} scope="row" className="px-4 py-3 font-medium">
                        {cell}
                      </th>
                    ) : (
                      <td key={i} className="px-4 py-3 text-slate-700 dark:text-slate-300">
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

/** A legal document (Privacy Policy, Terms of Service): title, date, contents, then numbered sections. */
export function LegalDocumentView({ doc }: { doc: LegalDocument }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
      <header>
        <h1 className="text-4xl font-bold tracking-tight">{doc.title}</h1>
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-300">
          {`${legalCopy.lastUpdatedLabel} ${doc.lastUpdated}`}
        </p>
      </header>
      {doc.intro.map((block, i) => (
        <Block key={i} block={block} />
      ))}
      <nav
        aria-labelledby="legal-contents"
        className="mt-8 rounded-xl border border-slate-200 bg-slate-50 p-6 dark:border-slate-800 dark:bg-slate-900"
      >
        <h2 id="legal-contents" className="text-base font-semibold">
          {legalCopy.contentsTitle}
        </h2>
        <ol className="mt-3 grid gap-1.5 text-sm sm:grid-cols-2">
          {doc.sections.map((section) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                className="text-slate-700 underline-offset-2 hover:text-brand-700 hover:underline dark:text-slate-300 dark:hover:text-brand-300"
              >
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {doc.sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="mt-12 scroll-mt-36">
          <h2 id={`${section.id}-title`} className="text-2xl font-semibold tracking-tight">
            {section.title}
          </h2>
          {section.blocks.map((block, i) => (
            <Block key={i} block={block} />
          ))}
          {section.subsections?.map((sub) => (
            <Fragment key={sub.title}>
              <h3 className="mt-6 text-lg font-semibold">{sub.title}</h3>
              {sub.blocks.map((block, i) => (
                <Block key={i} block={block} />
              ))}
            </Fragment>
          ))}
        </section>
      ))}
    </article>
  );
}

import { ArrowLeft, TriangleAlert } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/document-access";
import { AudienceForm, ReadStatus, READ_FILTER_PARAM, READ_PAGE_PARAM, type ReadFilter } from "~/components/documents/read-status";
import { parsePage } from "~/components/email-lists/params";
import { lastPageOf, LIST_PAGE_SIZE } from "~/components/ui/pager";
import { PersonLines, ScrollTable } from "~/components/ui/scroll-table";
import { accessHistoryCopy, audienceCopy, publishedDocumentsCopy } from "~/content/documents";
import { accessHistory, summarizeAccess } from "~/modules/access-log/access-log.server";
import { requireAdmin } from "~/modules/auth/guards.server";
import { adminDateTime } from "~/modules/dates/format";
import { categoryLabel, formatMegabytes } from "~/modules/documents/constants";
import { REMIND_INTENT, SET_AUDIENCE_INTENT } from "~/modules/documents/constants";
import { lpDocuments, recipientIdsOf } from "~/modules/documents/documents.server";
import { DocumentId } from "~/modules/documents/schema";
import { audiencePage, readCounts } from "~/modules/documents/read-status.server";
import { readFormData } from "~/modules/http/form-data.server";
import { answerAdminIntent } from "./actions.server";
import { audienceState } from "./audience.server";
import { isAppError } from "~/modules/http/app-error";
import { pageMeta } from "~/modules/seo/meta";

const BACK_HREF = "/admin/documents#published-documents";

/**
 * /admin/documents/{id}/access: who viewed or downloaded one LP document, when,
 * from where (DESIGN.md §5). An unknown or malformed id answers 404 with a
 * "no longer exists" state inside the admin frame.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  let row;
  try {
    row = lpDocuments.find(params.id);
  } catch (error) {
    if (isAppError(error) && error.status === 404) return data({ found: false as const }, { status: 404 });
    throw error;
  }
  const counts = summarizeAccess("lp").get(row.id);
  const history = accessHistory("lp", row.id);
  const query = new URL(request.url).searchParams;
  const read = readCounts(row.id).get(row.id) ?? { opened: 0, audience: 0 };
  const filter = parseReadFilter(query.get(READ_FILTER_PARAM));
  let page = parsePage(query.get(READ_PAGE_PARAM));
  const windowOf = (p: number) => ({ offset: (p - 1) * LIST_PAGE_SIZE, limit: LIST_PAGE_SIZE, filter });
  let members = audiencePage(row, windowOf(page));
  if (page > lastPageOf(members.total)) {
    page = lastPageOf(members.total);
    members = audiencePage(row, windowOf(page));
  }
  const when = (at: Date | null) => (at ? { text: adminDateTime(at), iso: at.toISOString() } : null);
  return {
    found: true as const,
    audience: audienceState(query, { audience: row.audience, watermark: row.watermark, recipientIds: recipientIdsOf([row]).get(row.id) ?? [] }),
    read: {
      openedBy: audienceCopy.openedBy(read.opened, read.audience),
      unopened: read.audience - read.opened,
      filter,
      page,
      total: members.total,
      rows: members.members.map((m) => ({
        id: m.id,
        name: m.name,
        email: m.email,
        referenceCode: m.referenceCode,
        viewed: when(m.firstViewAt),
        downloaded: when(m.firstDownloadAt),
      })),
    },
    document: {
      id: row.id,
      title: row.title,
      fileName: row.fileName,
      size: formatMegabytes(row.fileSize),
      category: categoryLabel(row.category),
    },
    views: counts?.views ?? 0,
    downloads: counts?.downloads ?? 0,
    total: history.total,
    entries: history.entries.map((entry) => ({
      id: entry.id,
      when: adminDateTime(entry.at),
      whenIso: entry.at.toISOString(),
      name: entry.actorName,
      email: entry.actorEmail,
      action: accessHistoryCopy.actions[entry.action],
      ip: entry.ip,
      userAgent: entry.userAgent,
    })),
  };
}

function parseReadFilter(value: string | null): ReadFilter {
  return value === "opened" || value === "unopened" ? value : "all";
}

/** The audience form and the reminder (plain posts; the outcome comes back as a flash). */
export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  // The page's own address is where the answer goes back to: only a document id can make one.
  if (!DocumentId.safeParse(params.id).success) throw data({ found: false as const }, { status: 404 });
  return answerAdminIntent(admin, await readFormData(request), `/admin/documents/${params.id}/access`, [SET_AUDIENCE_INTENT, REMIND_INTENT]);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.data?.found ? `${accessHistoryCopy.title}: ${args.data.document.title}` : publishedDocumentsCopy.documentGone,
    description: accessHistoryCopy.title,
    path: `/admin/documents/${args.params.id}/access`,
    noindex: true,
  });

function BackLink() {
  return (
    <Link
      to={BACK_HREF}
      className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
    >
      <ArrowLeft aria-hidden="true" className="size-4" />
      {accessHistoryCopy.back}
    </Link>
  );
}

function NotRecorded() {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="sr-only">{accessHistoryCopy.notRecorded}</span>
    </>
  );
}

export default function DocumentAccess({ loaderData }: Route.ComponentProps) {
  if (!loaderData.found) {
    return (
      <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
        <BackLink />
        <h1 className="mt-6 text-3xl font-bold tracking-tight">{accessHistoryCopy.title}</h1>
        <p role="status" className="mt-4 rounded-md border border-slate-300 px-4 py-6 text-slate-700 dark:border-slate-700 dark:text-slate-200">
          {publishedDocumentsCopy.documentGone}
        </p>
      </div>
    );
  }
  const { document, views, downloads, total, entries, audience, read } = loaderData;
  const action = `/admin/documents/${document.id}/access`;
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <BackLink />
      <h1 className="mt-6 text-3xl font-bold tracking-tight">{accessHistoryCopy.title}</h1>
      <p className="mt-2 text-xl font-semibold break-words">{document.title}</p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
        <span className="break-all">{document.fileName}</span>
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, </span>
        {document.size}
        <span aria-hidden="true"> · </span>
        <span className="sr-only">, </span>
        {document.category}
      </p>

      <AudienceForm documentId={document.id} state={audience} action={action} />
      <ReadStatus documentId={document.id} title={document.title} action={action} {...read} />

      <h2 className="mt-10 text-xl font-semibold">{accessHistoryCopy.title}</h2>
      <p className="mt-3 inline-block rounded-full bg-slate-100 px-3 py-1 text-sm font-medium text-slate-800 tabular-nums dark:bg-slate-800 dark:text-slate-100">
        {accessHistoryCopy.summary(views, downloads)}
      </p>

      {entries.length === 0 ? (
        <p className="mt-8 rounded-md border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">
          {accessHistoryCopy.empty}
        </p>
      ) : (
        <>
          <p className="mt-6 text-sm text-slate-600 dark:text-slate-300">
            {total > entries.length ? `${accessHistoryCopy.showing(entries.length, total)} ` : null}
            {accessHistoryCopy.timesInUtc}
          </p>
          <ScrollTable
            label={accessHistoryCopy.tableLabel}
            caption={accessHistoryCopy.caption(document.title)}
            className="mt-4"
            tableClassName="min-w-[48rem]"
            columns={[
              { label: accessHistoryCopy.columns.when, nowrap: true },
              { label: accessHistoryCopy.columns.who },
              { label: accessHistoryCopy.columns.action },
              { label: accessHistoryCopy.columns.ip, nowrap: true },
              { label: accessHistoryCopy.columns.browser },
            ]}
          >
            {entries.map((entry) => (
              <tr key={entry.id} className="align-top">
                <td className="px-4 py-3 whitespace-nowrap tabular-nums">
                  <time dateTime={entry.whenIso}>{entry.when}</time>
                </td>
                <td className="px-4 py-3">
                  {entry.name || entry.email ? (
                    <PersonLines name={entry.name} email={entry.email} />
                  ) : (
                    <span className="text-slate-600 italic dark:text-slate-300">{accessHistoryCopy.unknownUser}</span>
                  )}
                </td>
                <td className="px-4 py-3 whitespace-nowrap">{entry.action}</td>
                <td className="px-4 py-3 font-mono text-xs break-all">{entry.ip ?? <NotRecorded />}</td>
                <td className="max-w-xs px-4 py-3 text-xs break-words text-slate-700 dark:text-slate-300">
                  {entry.userAgent ?? <NotRecorded />}
                </td>
              </tr>
            ))}
          </ScrollTable>
        </>
      )}
    </div>
  );
}

/** A failure reading the history (not the admin's session): say so here, inside the admin frame. */
export function ErrorBoundary() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <BackLink />
      <h1 className="mt-6 text-3xl font-bold tracking-tight">{accessHistoryCopy.title}</h1>
      <div
        role="alert"
        className="mt-4 flex items-start gap-3 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
      >
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <div>
          <p className="font-semibold">{publishedDocumentsCopy.loadFailedTitle}</p>
          <p>{publishedDocumentsCopy.loadFailedDescription}</p>
        </div>
      </div>
    </div>
  );
}

import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/document-access";
import { AudienceForm, ReadStatus, READ_FILTER_PARAM, READ_PAGE_PARAM, type ReadFilter } from "~/components/documents/read-status";
import { parsePage } from "~/components/email-lists/params";
import { lastPageOf, LIST_PAGE_SIZE } from "~/components/ui/pager";
import { Badge, DataTable, OneLine, PersonLines, type DataColumn } from "~/components/kit/data-table";
import { EmptyState, LoadFailed } from "~/components/kit/empty-state";
import { WorkspaceErrorNotice } from "~/components/layout/workspace-error";
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
import { notFound, notFoundNotice } from "~/modules/http/not-found";
import { pageMeta } from "~/modules/seo/meta";

const BACK_HREF = "/admin/documents#published-documents";

/** An unknown document's 404 (issue 23: not found by throwing), shown inside the admin frame. */
function documentGone() {
  return notFound({ title: accessHistoryCopy.title, message: publishedDocumentsCopy.documentGone, back: { to: BACK_HREF, label: accessHistoryCopy.back } });
}

/**
 * /admin/documents/{id}/access: who viewed or downloaded one LP document, when,
 * from where (DESIGN.md §5). An unknown or malformed id throws a 404, which the
 * route's error boundary shows as "no longer exists" inside the admin frame.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  let row;
  try {
    row = lpDocuments.find(params.id);
  } catch (error) {
    // An unknown document: its not-found notice is this route's error boundary (inside the admin frame).
    if (isAppError(error) && error.status === 404) throw documentGone();
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
  if (!DocumentId.safeParse(params.id).success) throw documentGone();
  return answerAdminIntent(admin, await readFormData(request), `/admin/documents/${params.id}/access`, [SET_AUDIENCE_INTENT, REMIND_INTENT]);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.data ? `${accessHistoryCopy.title}: ${args.data.document.title}` : publishedDocumentsCopy.documentGone,
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

type Entry = Route.ComponentProps["loaderData"]["entries"][number];

/** One line per view or download; below 640 px a card (who and what, the time, then address and browser). */
const entryColumns: ReadonlyArray<DataColumn<Entry>> = [
  {
    key: "who",
    header: accessHistoryCopy.columns.who,
    card: "primary",
    rowHeader: true,
    cell: (entry) =>
      entry.name || entry.email ? (
        <PersonLines name={entry.name} email={entry.email} />
      ) : (
        <span className="text-slate-600 italic dark:text-slate-300">{accessHistoryCopy.unknownUser}</span>
      ),
  },
  { key: "action", header: accessHistoryCopy.columns.action, width: "w-28", card: "badge", cell: (entry) => <Badge>{entry.action}</Badge> },
  {
    key: "when",
    header: accessHistoryCopy.columns.when,
    width: "w-48",
    card: "meta",
    className: "whitespace-nowrap tabular-nums",
    cell: (entry) => <time dateTime={entry.whenIso}>{entry.when}</time>,
  },
  {
    key: "ip",
    header: accessHistoryCopy.columns.ip,
    width: "w-32",
    className: "font-mono text-xs",
    cell: (entry) => (entry.ip ? <OneLine title={entry.ip}>{entry.ip}</OneLine> : <NotRecorded />),
  },
  {
    key: "browser",
    header: accessHistoryCopy.columns.browser,
    className: "text-xs text-slate-700 dark:text-slate-300",
    cell: (entry) => (entry.userAgent ? <OneLine title={entry.userAgent}>{entry.userAgent}</OneLine> : <NotRecorded />),
  },
];

function PageTitle() {
  return (
    <>
      <BackLink />
      <h1 className="mt-4 text-3xl font-bold tracking-tight">{accessHistoryCopy.title}</h1>
    </>
  );
}

export default function DocumentAccess({ loaderData }: Route.ComponentProps) {
  const { document, views, downloads, total, entries, audience, read } = loaderData;
  const action = `/admin/documents/${document.id}/access`;
  return (
    <div>
      <PageTitle />
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
        <EmptyState>{accessHistoryCopy.empty}</EmptyState>
      ) : (
        <>
          <p className="mt-6 text-sm text-slate-600 dark:text-slate-300">
            {total > entries.length ? `${accessHistoryCopy.showing(entries.length, total)} ` : null}
            {accessHistoryCopy.timesInUtc}
          </p>
          <DataTable label={accessHistoryCopy.caption(document.title)} columns={entryColumns} rows={entries} rowKey={(entry) => String(entry.id)} />
        </>
      )}
    </div>
  );
}

/**
 * Inside the admin frame: an unknown document (404) says it no longer exists;
 * a failure reading the history (not the admin's session) says so.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (notFoundNotice(error)) return <WorkspaceErrorNotice error={error} home={{ to: BACK_HREF, label: accessHistoryCopy.back }} />;
  return (
    <div>
      <PageTitle />
      <LoadFailed title={publishedDocumentsCopy.loadFailedTitle} description={publishedDocumentsCopy.loadFailedDescription} />
    </div>
  );
}
